import { describe, expect, it } from 'vitest';
import { escapeHtml, placeText, renderPage } from './page.js';

describe('public page', () => {
  it('escapes text', () => {
    expect(escapeHtml('<b>"Tom" & \'Jerry\'</b>')).toBe('&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;');
  });

  it('shows coordinates only for exact locations', () => {
    const loc = { latitude: 52.37123, longitude: 4.90456, city: 'Amsterdam', country: 'NL' };
    expect(placeText(loc, 'exact')).toBe('Amsterdam, NL (52.3712, 4.9046)');
    expect(placeText(loc, 'city')).toBe('Amsterdam, NL');
    expect(placeText({ latitude: 52.4, longitude: 4.9 }, 'country')).toBe('area of 52.4, 4.9');
    expect(placeText(null, 'hidden')).toBe('location not disclosed');
  });

  it('renders a seed lot with an invalid block as invalid, escaping what growers typed', () => {
    const html = renderPage({
      id: 'lot_a-1',
      plant: null,
      lineage: null,
      events: [],
      totals: { distanceKm: 0, kgCo2e: 0 },
      verdicts: new Map([['a'.repeat(64), ['altered (payload-hash-mismatch)']]]),
    });
    expect(html).toContain('<h1>Seed lot lot_a-1</h1>');
    expect(html).toContain('id="overall" data-verdict="invalid"');
    expect(html).toContain('name="viewport"');
  });
});
