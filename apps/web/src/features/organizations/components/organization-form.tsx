import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Field, SelectField } from '../../../components/field';
import { ErrorAlert } from '../../../components/status';
import { errorFor } from '../../../lib/errors';
import { ORG_KINDS, type OrganizationInput, type OrgKind, useCreateOrganization } from '../api/organizations';
import { KIND_LABELS, ORGS } from '../strings';

const S = ORGS.form;
const LEVELS = ['exact', 'fuzzy', 'city', 'country', 'hidden'] as const;

/** Creates an organization; the creator becomes its first owner and lands on its members page. */
export function OrganizationForm() {
  const create = useCreateOrganization();
  const navigate = useNavigate();
  const [form, setForm] = useState({
    name: '',
    kind: 'co-op' as OrgKind,
    description: '',
    website: '',
    latitude: '',
    longitude: '',
    city: '',
    country: '',
    privacyLevel: 'city' as (typeof LEVELS)[number],
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  const err = (name: string) => errorFor(create.error, name);
  return (
    <form
      className="stack org-form"
      aria-label={S.title}
      onSubmit={(e) => {
        e.preventDefault();
        const body: OrganizationInput = { name: form.name.trim(), kind: form.kind, privacyLevel: form.privacyLevel };
        if (form.description.trim()) body.description = form.description.trim();
        if (form.website.trim()) body.website = form.website.trim();
        if (form.latitude && form.longitude) {
          body.location = {
            latitude: Number(form.latitude),
            longitude: Number(form.longitude),
            ...(form.city.trim() ? { city: form.city.trim() } : {}),
            ...(form.country.trim() ? { country: form.country.trim() } : {}),
          };
        }
        create.mutate(body, { onSuccess: (org) => navigate(`/organizations/${org.id}/members`) });
      }}
    >
      <Field label={S.name} name="name" required value={form.name} onChange={set('name')} error={err('name')} />
      <SelectField
        label={S.kind}
        name="kind"
        value={form.kind}
        onChange={(kind) => setForm({ ...form, kind: kind as OrgKind })}
        options={ORG_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] ?? k }))}
      />
      <div className="field">
        <label htmlFor="org-description">{S.description}</label>
        <textarea id="org-description" rows={3} value={form.description} onChange={set('description')} />
      </div>
      <Field
        label={S.website}
        name="website"
        type="url"
        hint={S.websiteHint}
        value={form.website}
        onChange={set('website')}
        error={err('website')}
      />
      <div className="org-place">
        <Field label={S.city} name="city" value={form.city} onChange={set('city')} error={err('location.city')} />
        <Field
          label={S.country}
          name="country"
          value={form.country}
          onChange={set('country')}
          error={err('location.country')}
        />
        <Field
          label={S.latitude}
          name="latitude"
          inputMode="decimal"
          value={form.latitude}
          onChange={set('latitude')}
          error={err('location.latitude')}
        />
        <Field
          label={S.longitude}
          name="longitude"
          inputMode="decimal"
          value={form.longitude}
          onChange={set('longitude')}
          error={err('location.longitude')}
        />
      </div>
      <SelectField
        label={S.privacy}
        name="privacyLevel"
        value={form.privacyLevel}
        onChange={(level) => setForm({ ...form, privacyLevel: level as (typeof LEVELS)[number] })}
        options={LEVELS.map((l) => ({ value: l, label: S.privacyLevels[l] ?? l }))}
      />
      <ErrorAlert error={create.error} />
      <div className="actions">
        <button type="submit" disabled={create.isPending}>
          {create.isPending ? S.busy : S.submit}
        </button>
      </div>
    </form>
  );
}
