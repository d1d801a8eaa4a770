import { useState } from 'react';
import { Field } from '../../../components/field';
import { errorFor } from '../../../lib/errors';
import { ENVIRONMENT } from '../strings';

const S = ENVIRONMENT.compare;

/** The two plants to compare, by id (filled in when the page was opened from a list of similar plants). */
export function CompareForm({
  plantA,
  plantB,
  onCompare,
  error,
}: {
  plantA: string;
  plantB: string;
  onCompare: (a: string, b: string) => void;
  /** The comparison's refusal, shown beside the plant it concerns. */
  error?: unknown;
}) {
  const [a, setA] = useState(plantA);
  const [b, setB] = useState(plantB);
  return (
    <form
      className="row search-row"
      onSubmit={(e) => {
        e.preventDefault();
        onCompare(a.trim(), b.trim());
      }}
    >
      <Field
        label={S.plantA}
        name="plantA"
        required
        value={a}
        onChange={(e) => setA(e.target.value)}
        error={errorFor(error, 'plantA')}
      />
      <Field
        label={S.plantB}
        name="plantB"
        required
        value={b}
        onChange={(e) => setB(e.target.value)}
        error={errorFor(error, 'plantB')}
      />
      <div className="actions">
        <button type="submit">{S.submit}</button>
      </div>
    </form>
  );
}
