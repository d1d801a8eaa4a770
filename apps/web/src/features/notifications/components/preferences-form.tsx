import { useEffect, useState } from 'react';
import { ErrorAlert, Loading } from '../../../components/status';
import { useToast } from '../../../components/toaster';
import {
  type Channel,
  type PreferenceChange,
  type Preferences,
  type PreferenceType,
  usePreferences,
  useSavePreferences,
} from '../api/notifications';
import { CHANNEL_LABELS, NOTIFICATIONS_TEXT, TYPE_LABELS } from '../strings';

const S = NOTIFICATIONS_TEXT.preferences;
const CHANNELS: Channel[] = ['in-app', 'email', 'push'];

/** One switch per notification type and channel, saved together. */
export function PreferencesForm() {
  const prefs = usePreferences();
  const save = useSavePreferences();
  const toast = useToast();
  const [draft, setDraft] = useState<Preferences | null>(null);
  useEffect(() => {
    if (prefs.data) setDraft(prefs.data);
  }, [prefs.data]);
  if (prefs.isPending) return <Loading />;
  if (prefs.error) return <ErrorAlert error={prefs.error} />;
  if (!draft) return <Loading />;
  const types = Object.keys(draft) as PreferenceType[];
  return (
    <form
      className="card form"
      aria-labelledby="preferences-heading"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate(draft as PreferenceChange, { onSuccess: () => toast(S.saved) });
      }}
    >
      <h2 id="preferences-heading">{S.table}</h2>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{S.type}</th>
              {CHANNELS.map((c) => (
                <th scope="col" key={c}>
                  {CHANNEL_LABELS[c]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {types.map((type) => (
              <tr key={type}>
                <th scope="row">{TYPE_LABELS[type]}</th>
                {CHANNELS.map((channel) => (
                  <td key={channel}>
                    <input
                      type="checkbox"
                      aria-label={S.switch(TYPE_LABELS[type], CHANNEL_LABELS[channel])}
                      checked={draft[type][channel]}
                      onChange={(e) => setDraft({ ...draft, [type]: { ...draft[type], [channel]: e.target.checked } })}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ErrorAlert error={save.error} />
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? S.saving : S.save}
      </button>
    </form>
  );
}
