import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { type GeocodedPlace, PLACE_SEARCH_MIN, usePlaceSearch } from '../hooks/use-place-search';
import { errorMessage, isUnauthorized } from '../lib/errors';
import { countOf } from '../lib/plural';

const S = {
  label: 'Find a place',
  hint: 'A town or city, e.g. “Utrecht” or “Paris, France”. Choosing one fills in the fields below.',
  results: 'Places found',
  tooShort: `Type at least ${PLACE_SEARCH_MIN} letters.`,
  searching: 'Searching…',
  found: (n: number) => `${countOf(n, 'place')} found. Tab or arrow down to ${n === 1 ? 'it' : 'them'}.`,
  none: (q: string) => `No place found for “${q}”. Check the spelling, or pick the point on the map.`,
  chosen: (p: GeocodedPlace) => `${p.displayName} chosen: latitude ${p.latitude}, longitude ${p.longitude}.`,
  signedOut: 'Sign in again to find places by name.',
  failed: 'The place search failed:',
  people: (n: number) => `${n.toLocaleString('en')} people`,
} as const;

/** Time typing must pause before a search is sent. */
const DEBOUNCE_MS = 250;

/**
 * A search box for places by name (forward geocoding) with its answers as a list of buttons: typing is debounced,
 * the number of answers is announced in a live region, arrow keys (and Enter, which does not send the form) move
 * from the box to the answers and between them, Escape goes back to the box. Choosing an answer hands it to
 * `onChoose`.
 */
export function PlaceSearch({ onChoose }: { onChoose: (place: GeocodedPlace) => void }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const [text, setText] = useState('');
  // The answer chosen last: its text, left in the box, is not searched again until the person types something else.
  const [chosen, setChosen] = useState<GeocodedPlace | null>(null);
  const typed = chosen && text === chosen.displayName ? '' : text;
  const q = useDebouncedValue(typed.trim(), DEBOUNCE_MS);
  const search = usePlaceSearch(q);
  const length = typed.trim().length;
  const active = length >= PLACE_SEARCH_MIN;
  // The answer to what is in the box now (not to what was typed before, still shown while the next one comes).
  const current = q === typed.trim() && !search.isFetching && !search.isPlaceholderData;
  const places = active && search.data ? search.data.items : [];

  let status = '';
  if (chosen && text === chosen.displayName) status = S.chosen(chosen);
  else if (length > 0 && !active) status = S.tooShort;
  else if (active && !current && !search.isError) status = S.searching;
  else if (active && current && search.isSuccess) status = places.length > 0 ? S.found(places.length) : S.none(q);

  const buttons = () => [...(list.current?.querySelectorAll('button') ?? [])];
  const onInputKey = (e: KeyboardEvent<HTMLInputElement>) => {
    // Enter would send the form the box is in: here it goes to the places found, as arrow down does.
    if (e.key === 'Enter') e.preventDefault();
    if ((e.key === 'ArrowDown' || e.key === 'Enter') && places.length > 0) {
      e.preventDefault();
      buttons()[0]?.focus();
    } else if (e.key === 'Escape' && text) {
      e.preventDefault();
      setText('');
    }
  };
  const onResultKey = (e: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const all = buttons();
    const to = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: all.length - 1 }[e.key];
    if (e.key === 'Escape' || to === -1) {
      e.preventDefault();
      input.current?.focus();
    } else if (to !== undefined) {
      e.preventDefault();
      all[Math.min(to, all.length - 1)]?.focus();
    }
  };
  const choose = (place: GeocodedPlace) => {
    setChosen(place);
    setText(place.displayName);
    onChoose(place);
    input.current?.focus();
  };

  return (
    <div className="place-search">
      <div className="field">
        <label htmlFor={id}>{S.label}</label>
        <input
          ref={input}
          id={id}
          type="search"
          name="place"
          autoComplete="off"
          spellCheck={false}
          maxLength={200}
          aria-describedby={`${id}-hint`}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onInputKey}
        />
        <p className="hint" id={`${id}-hint`}>
          {S.hint}
        </p>
      </div>
      <p className="hint" role="status">
        {status}
      </p>
      {search.error && active && (
        <p className="field-error" role="alert">
          {isUnauthorized(search.error) ? S.signedOut : `${S.failed} ${errorMessage(search.error)}`}
        </p>
      )}
      {places.length > 0 && (
        <ul ref={list} className="place-results" aria-label={S.results}>
          {places.map((p, i) => (
            <li key={`${p.source}-${p.latitude}-${p.longitude}-${p.name}`}>
              <button
                type="button"
                className="secondary"
                onClick={() => choose(p)}
                onKeyDown={(e) => onResultKey(e, i)}
              >
                {p.displayName}
              </button>
              {p.population !== null && <span className="muted"> {S.people(p.population)}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
