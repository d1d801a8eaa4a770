import { useId, useState } from 'react';
import { ErrorAlert } from '../../../components/status';
import { currentLanguage } from '../../../i18n';
import { errorFor } from '../../../lib/errors';
import { type LabelLayout, useDownloadLabels } from '../api/labels';
import { LABELS } from '../strings';
import './print-labels.css';

/** The most plants one sheet request may hold (the API's limit). */
export const LABELS_MAX_PLANTS = 240;

const LAYOUTS: { value: LabelLayout; perPage: number }[] = [
  { value: 'a4-3x8', perPage: 24 },
  { value: 'letter-3x10', perPage: 30 },
  { value: 'seed-packet', perPage: 8 },
];

const S = LABELS;

/** Layout, starting position and download of a label sheet for the plants given. */
export function PrintLabels({ plantIds, heading = 'h2' }: { plantIds: string[]; heading?: 'h2' | 'h3' }) {
  const id = useId();
  const [layout, setLayout] = useState<LabelLayout>('a4-3x8');
  const [startAt, setStartAt] = useState(1);
  const [harvestedOn, setHarvestedOn] = useState('');
  const download = useDownloadLabels();
  const harvestError = errorFor(download.error, 'harvestedOn');
  const perPage = LAYOUTS.find((l) => l.value === layout)?.perPage ?? 24;
  const Heading = heading;
  const problem =
    plantIds.length === 0 ? S.none : plantIds.length > LABELS_MAX_PLANTS ? S.tooMany(LABELS_MAX_PLANTS) : null;
  return (
    <form
      className="print-labels"
      aria-labelledby={`${id}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        if (problem) return;
        download.mutate({
          plantIds,
          layout,
          startAt: Math.min(startAt, perPage),
          // A seed packet's own words ("Seeds", "Harvested") in the language the app is shown in.
          language: currentLanguage(),
          ...(layout === 'seed-packet' && harvestedOn.trim() ? { harvestedOn: harvestedOn.trim() } : {}),
        });
      }}
    >
      <Heading id={`${id}-title`}>{S.title}</Heading>
      <p className="hint">{S.lead}</p>
      <div className="print-labels-fields">
        <label>
          {S.layout}
          <select value={layout} onChange={(e) => setLayout(e.target.value as LabelLayout)}>
            {LAYOUTS.map((l) => (
              <option key={l.value} value={l.value}>
                {S.layoutName(l.value)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {S.startAt}
          <input
            type="number"
            min={1}
            max={perPage}
            value={startAt}
            aria-describedby={`${id}-start`}
            onChange={(e) => setStartAt(Math.min(perPage, Math.max(1, Number(e.target.value) || 1)))}
          />
        </label>
        {layout === 'seed-packet' && (
          <label>
            {S.harvested}
            <input
              name="harvestedOn"
              value={harvestedOn}
              placeholder="2026-09"
              aria-invalid={harvestError ? true : undefined}
              aria-describedby={harvestError ? `${id}-harvest ${id}-harvest-error` : `${id}-harvest`}
              onChange={(e) => setHarvestedOn(e.target.value)}
            />
          </label>
        )}
        <button type="submit" disabled={download.isPending || problem !== null}>
          {download.isPending ? S.downloading : S.download(plantIds.length)}
        </button>
      </div>
      <p className="hint" id={`${id}-start`}>
        {S.startHint(perPage)}
      </p>
      {layout === 'seed-packet' && (
        <p className="hint" id={`${id}-harvest`}>
          {S.harvestedHint}
        </p>
      )}
      {harvestError && (
        <p className="field-error" id={`${id}-harvest-error`}>
          {harvestError}
        </p>
      )}
      {problem && plantIds.length > 0 && <p className="field-error">{problem}</p>}
      {plantIds.length === 0 && <p className="hint">{S.none}</p>}
      <ErrorAlert error={download.error} />
      {download.isSuccess && (
        <p className="alert alert-ok" role="status">
          {S.done}
        </p>
      )}
    </form>
  );
}
