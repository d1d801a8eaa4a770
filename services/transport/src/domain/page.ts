import type { Location } from '@rootline/contracts/common';
import type { Plant } from '@rootline/contracts/plants';
import type { JourneyEvent } from '@rootline/contracts/transport';

/** What the public verification page shows; everything in it is already as privacy levels allow. */
export interface PageData {
  id: string;
  plant:
    | (Pick<Plant, 'id' | 'commonName' | 'scientificName' | 'location' | 'privacyLevel' | 'generation'> & {
        blockHash: string;
      })
    | null;
  lineage: { ancestors: number; rootId: string | null; offspring: number } | null;
  events: JourneyEvent[];
  totals: { distanceKm: number; kgCo2e: number };
  /** Ledger verdict per block hash: the failed checks' reasons, empty when valid. */
  verdicts: Map<string, string[]>;
  /** The plant's revoked certificates (from the signed revocation list); null when the list could not be read. */
  revocations?: { certificateId: string; revokedAt: string; reason: string }[] | null;
}

/** The revoked certificates of the page's plant, or a note that their status is unknown. */
function revocationsHtml(d: PageData): string {
  if (!d.plant || d.revocations === undefined) return '';
  if (d.revocations === null) {
    return '<section id="certificates"><h2>Certificates</h2><p>Revocation status is unavailable right now.</p></section>';
  }
  if (d.revocations.length === 0) {
    return '<section id="certificates"><h2>Certificates</h2><p>No certificate of this plant has been revoked.</p></section>';
  }
  const items = d.revocations
    .map(
      (r) =>
        `<li class="revoked"><b>REVOKED</b> certificate <code>${escapeHtml(r.certificateId)}</code> on ${escapeHtml(r.revokedAt)}: ${escapeHtml(r.reason)}</li>`,
    )
    .join('\n');
  return `<section id="certificates"><h2>Certificates</h2><ul>${items}</ul></section>`;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** A location as the page shows it: city and country; coordinates only for an exact location; hidden says so. */
export function placeText(location: Location | null, privacyLevel: string): string {
  if (!location) return 'location not disclosed';
  const named = [location.city, location.country].filter(Boolean).join(', ');
  if (privacyLevel !== 'exact')
    return named || `area of ${location.latitude.toFixed(1)}, ${location.longitude.toFixed(1)}`;
  const point = `${location.latitude.toFixed(4)}, ${location.longitude.toFixed(4)}`;
  return named ? `${named} (${point})` : point;
}

function verdictHtml(hash: string, verdicts: Map<string, string[]>): string {
  const problems = verdicts.get(hash);
  if (!problems) return '<span class="verdict unknown" data-verdict="unknown">not checked</span>';
  if (problems.length === 0) return '<span class="verdict valid" data-verdict="valid">✔ verified on the ledger</span>';
  return `<span class="verdict invalid" data-verdict="invalid">✘ invalid: ${problems.map(escapeHtml).join('; ')}</span>`;
}

const STYLE = `body{font-family:system-ui,sans-serif;margin:0;padding:1rem;max-width:40rem;margin-inline:auto;
line-height:1.45;color:#1b2a1b}h1{font-size:1.4rem;margin:.2rem 0}h2{font-size:1.1rem;margin-top:1.4rem}
ol{padding-left:1.2rem}li{margin-bottom:.8rem}.meta{color:#555;font-size:.9rem}code{word-break:break-all;font-size:.75rem}
.verdict{display:inline-block;padding:.1rem .4rem;border-radius:.3rem;font-size:.85rem}.valid{background:#d8f3d8}
.invalid{background:#fbd5d5}.unknown{background:#eee}.totals{background:#f1f6ef;padding:.6rem;border-radius:.4rem}`;

/** The page as plain server-rendered HTML: readable on a phone, no script, no build step. */
export function renderPage(d: PageData): string {
  const title = d.plant ? d.plant.commonName : `Seed lot ${d.id}`;
  const plant = d.plant
    ? `<section id="plant"><h1>${escapeHtml(d.plant.commonName)}</h1>
<p class="meta">${d.plant.scientificName ? `<i>${escapeHtml(d.plant.scientificName)}</i> · ` : ''}generation ${d.plant.generation}
· ${escapeHtml(placeText(d.plant.location, d.plant.privacyLevel))}</p>
<p>Registered in block <code>${d.plant.blockHash}</code> ${verdictHtml(d.plant.blockHash, d.verdicts)}</p></section>`
    : `<section id="plant"><h1>Seed lot ${escapeHtml(d.id)}</h1></section>`;
  const lineage = d.lineage
    ? `<section id="lineage"><h2>Lineage</h2><p>${d.lineage.ancestors} ancestor(s)${
        d.lineage.rootId ? `, descended from ${escapeHtml(d.lineage.rootId)}` : ''
      }; ${d.lineage.offspring} direct offspring.</p></section>`
    : '';
  const items = d.events
    .map(
      (e) => `<li class="event" data-event="${e.id}"><b>${escapeHtml(e.kind)}</b> · ${escapeHtml(e.eventTime)}${
        e.correctedBy ? ' <i>(corrected by a later event)</i>' : ''
      }<br>${e.from ? `${escapeHtml(placeText(e.from, e.privacyLevel))} → ` : ''}${escapeHtml(placeText(e.to, e.privacyLevel))}
<br>${escapeHtml(e.transportMode)} · ${e.distanceKm === null ? 'distance not shown' : `${e.distanceKm} km`}${e.kgCo2e === null ? '' : ` · ${e.kgCo2e} kg CO2e`}<br>
block <code>${e.blockHash}</code> ${verdictHtml(e.blockHash, d.verdicts)}</li>`,
    )
    .join('\n');
  const anyInvalid = [...d.verdicts.values()].some((p) => p.length > 0);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} · Rootline</title>
<style>${STYLE}</style></head><body>
${plant}
<p id="overall" data-verdict="${anyInvalid ? 'invalid' : 'valid'}">${
    anyInvalid ? '✘ Some records failed verification on the ledger.' : '✔ Every record below is verified on the ledger.'
  }</p>
${lineage}
${revocationsHtml(d)}
<section id="journey"><h2>Journey</h2>
<p class="totals">${d.events.length} event(s) · ${d.totals.distanceKm} km · ${d.totals.kgCo2e} kg CO2e</p>
<ol>${items}</ol></section>
<p class="meta">Locations are shown as precisely as their owners chose. Rootline.</p>
</body></html>`;
}
