import { COMMON } from '../lib/strings';
import { SelectField } from './field';

export const PRIVACY_LEVELS = ['exact', 'fuzzy', 'city', 'country', 'hidden'] as const;
export type PrivacyLevel = (typeof PRIVACY_LEVELS)[number];

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
      label={COMMON.privacy.label}
      name="privacyLevel"
      value={value}
      onChange={(v) => onChange(v as PrivacyLevel)}
      options={PRIVACY_LEVELS.map((l) => ({ value: l, label: COMMON.privacy.level(l) }))}
      hint={
        <span aria-live="polite">
          {COMMON.privacy.shows(value)} {COMMON.privacy.never}
        </span>
      }
      error={error}
    />
  );
}
