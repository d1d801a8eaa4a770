import { type KeyboardEvent, useId, useState } from 'react';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { type GeocodedPlace, PLACE_SEARCH_MIN, usePlaceSearch } from '../hooks/use-place-search';
import { errorMessage } from '../lib/errors';
import { COMMON } from '../lib/strings';
import './place-search.css';

const S = COMMON.place;

/** Time typing must pause before a search is sent. */
const DEBOUNCE_MS = 250;

/**
 * A search box for places by name (forward geocoding), as a combobox with its answers in a list box: typing is
 * debounced, the number of answers is announced in a live region, arrow keys (and Enter, which does not send the
 * form) move through the answers while the focus stays in the box, Enter chooses, Escape closes the list and then
 * empties the box. Choosing an answer hands it to `onChoose`.
 */
export function PlaceSearch({
  onChoose,
  label = S.label,
  hint = S.hint,
}: {
  onChoose: (place: GeocodedPlace) => void;
  label?: string;
  hint?: string;
}) {
  const id = useId();
  const [text, setText] = useState('');
  // The answer chosen last: its text, left in the box, is not searched again until the person types something else.
  const [chosen, setChosen] = useState<GeocodedPlace | null>(null);
  // The answer the arrow keys are on (-1: none), and whether the list was closed with Escape.
  const [active, setActive] = useState(-1);
  const [closed, setClosed] = useState(false);
  const typed = chosen && text === chosen.displayName ? '' : text;
  const q = useDebouncedValue(typed.trim(), DEBOUNCE_MS);
  const search = usePlaceSearch(q);
  const length = typed.trim().length;
  const searching = length >= PLACE_SEARCH_MIN;
  // The answer to what is in the box now (not to what was typed before, still shown while the next one comes).
  const current = q === typed.trim() && !search.isFetching && !search.isPlaceholderData;
  const places = searching && search.data ? search.data.items : [];
  const open = places.length > 0 && !closed;
  const optionId = (i: number) => `${id}-option-${i}`;

  let status = '';
  if (chosen && text === chosen.displayName) status = S.chosen(chosen.displayName, chosen.latitude, chosen.longitude);
  else if (length > 0 && !searching) status = S.tooShort(PLACE_SEARCH_MIN);
  else if (searching && !current && !search.isError) status = S.searching;
  else if (searching && current && search.isSuccess) status = places.length > 0 ? S.found(places.length) : S.none(q);

  const choose = (place: GeocodedPlace) => {
    setChosen(place);
    setText(place.displayName);
    setActive(-1);
    onChoose(place);
  };
  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    const last = places.length - 1;
    if (e.key === 'Enter') {
      // Enter would send the form the box is in: here it chooses the answer the arrows are on, or goes to the first.
      e.preventDefault();
      if (open && active >= 0) choose(places[active]!);
      else if (places.length > 0) {
        setClosed(false);
        setActive(0);
      }
      return;
    }
    const to = { ArrowDown: active + 1, ArrowUp: active - 1, Home: 0, End: last }[e.key];
    if (to !== undefined && places.length > 0 && (open || e.key === 'ArrowDown')) {
      e.preventDefault();
      setClosed(false);
      setActive(Math.max(0, Math.min(to, last)));
    } else if (e.key === 'Escape' && (open || text)) {
      e.preventDefault();
      if (open) setClosed(true);
      else setText('');
      setActive(-1);
    }
  };

  return (
    <div className="place-search">
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          type="search"
          name="place"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={`${id}-list`}
          {...(open && active >= 0 ? { 'aria-activedescendant': optionId(active) } : {})}
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          aria-describedby={`${id}-hint`}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(-1);
            setClosed(false);
          }}
          onKeyDown={onKey}
        />
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      </div>
      <p className="hint" role="status">
        {status}
      </p>
      {search.error && searching && (
        <p className="field-error" role="alert">
          {`${S.failed} ${errorMessage(search.error)}`}
        </p>
      )}
      <div id={`${id}-list`} role="listbox" className="place-results" aria-label={S.results} hidden={!open}>
        {open &&
          places.map((p, i) => (
            // Options are chosen with the box's keys (aria-activedescendant) or a click; the focus stays in the box.
            // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox's input handles the keys.
            <div
              key={`${p.source}-${p.latitude}-${p.longitude}-${p.name}`}
              id={optionId(i)}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              className={i === active ? 'active' : undefined}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(p)}
            >
              <span>{p.displayName}</span>
              {p.population !== null && <span className="muted"> · {S.people(p.population)}</span>}
            </div>
          ))}
      </div>
    </div>
  );
}
