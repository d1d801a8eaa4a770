import sharp from 'sharp';
import type { DemoContext, Person } from './demo-context.js';

/** A picture of a plant drawn for the demo: leaves on a pot, in the plant's colours. */
export function plantSvg(leaf: string, fruit: string | null): string {
  const leaves = [
    [320, 250, -30],
    [380, 230, 25],
    [300, 190, -55],
    [400, 170, 50],
    [345, 150, 0],
  ]
    .map(
      ([x, y, r]) => `<ellipse cx="${x}" cy="${y}" rx="34" ry="70" fill="${leaf}" transform="rotate(${r} ${x} ${y})"/>`,
    )
    .join('');
  const fruits = fruit
    ? [
        [300, 230],
        [390, 205],
        [350, 260],
      ]
        .map(([x, y]) => `<circle cx="${x}" cy="${y}" r="22" fill="${fruit}"/>`)
        .join('')
    : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="#eef5e9"/><stop offset="1" stop-color="#d9e8cf"/></linearGradient></defs>
    <rect width="640" height="480" fill="url(#sky)"/>
    <rect x="330" y="250" width="14" height="120" fill="#4c7a34"/>
    ${leaves}${fruits}
    <path d="M250 360 h190 l-25 100 h-140 z" fill="#b5542d"/>
    <rect x="240" y="345" width="210" height="26" rx="6" fill="#9a4424"/>
  </svg>`;
}

/** Uploads a drawn photo of each plant, by its owner (its owner may attach photos to it). */
export async function fillPhotos(
  c: DemoContext,
  plants: readonly { owner: Person; plantId: string; leaf: string; fruit: string | null; name: string }[],
): Promise<string[]> {
  const ids: string[] = [];
  for (const p of plants) {
    const jpeg = await sharp(Buffer.from(plantSvg(p.leaf, p.fruit)))
      .jpeg({ quality: 82 })
      .toBuffer();
    const file = await c.ok(`uploading a photo of ${p.name}`, async (headers) => {
      const form = new FormData();
      form.append('category', 'plant-photo');
      form.append('entityType', 'plant');
      form.append('entityId', p.plantId);
      form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `${p.name.toLowerCase()}.jpg`);
      const response = await fetch(`${c.baseUrl}/api/upload/image`, {
        method: 'POST',
        headers: { authorization: `Bearer ${p.owner.token}`, ...headers },
        body: form,
      });
      const body = (await response.json().catch(() => ({}))) as { data?: { id: string }; error?: unknown };
      return body.data ? { data: { data: body.data }, response } : { error: body, response };
    });
    ids.push(file.id);
  }
  return ids;
}
