import { SelectField } from './field';

export const PRIVACY_LEVELS = ['exact', 'fuzzy', 'city', 'country', 'hidden'] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

/** What each level will show of the location, in the words of the API's rule (applied before anything is stored). */
const SHOWS: Record<PrivacyLevel, { label: string; shows: string }> = {
  exact: { label: 'Exact', shows: 'Everyone sees the exact point you give.' },
  fuzzy: { label: 'Fuzzy', shows: 'The point is moved 1 to 5 km in a random direction before it is stored.' },
  city: { label: 'City', shows: 'Only the centre of an area of about 10 km around it is stored and shown.' },
  country: { label: 'Country', shows: 'Only the centre of an area of about 100 km is stored; the city is dropped.' },
  hidden: { label: 'Hidden', shows: 'No location is stored; the plant never appears on maps or in nearby lists.' },
};

/** The privacy level, with what the chosen level will show. */
export function PrivacyLevelField({
  value,
  onChange,
  error,
}: {
  value: PrivacyLevel;
  onChange: (value: PrivacyLevel) => void;
  error?: string | undefined;
}) {
  return (
    <SelectField
      label="Privacy of the location"
      name="privacyLevel"
      value={value}
      onChange={(v) => onChange(v as PrivacyLevel)}
      options={PRIVACY_LEVELS.map((l) => ({ value: l, label: SHOWS[l].label }))}
      hint={<span aria-live="polite">{SHOWS[value].shows} Nothing more precise is ever written to the ledger.</span>}
      error={error}
    />
  );
}
