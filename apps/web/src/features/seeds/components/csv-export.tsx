import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert, Notice } from '../../../components/status';
import { exportFile, type ImportKind } from '../api/imports';
import { SEEDS } from '../strings';

const S = SEEDS.csv;

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** An inventory list's CSV actions: export what the tab's owner holds, and the way to the import page. */
export function CsvActions({ kind }: { kind: ImportKind }) {
  const [state, setState] = useState<{ busy: boolean; error: unknown; done: string | null }>({
    busy: false,
    error: null,
    done: null,
  });
  return (
    <div className="stack">
      <div className="actions">
        <button
          type="button"
          className="secondary"
          disabled={state.busy}
          onClick={async () => {
            setState({ busy: true, error: null, done: null });
            try {
              const file = await exportFile(kind);
              save(file.blob, file.name);
              setState({ busy: false, error: null, done: file.name });
            } catch (error) {
              setState({ busy: false, error, done: null });
            }
          }}
        >
          {state.busy ? S.exporting : S.export}
        </button>
        <Link to={`/imports?kind=${kind}`}>{S.open}</Link>
      </div>
      {state.error ? <ErrorAlert error={state.error} /> : null}
      {state.done && <Notice>{S.exported(state.done)}</Notice>}
    </div>
  );
}
