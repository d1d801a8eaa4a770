// Makes the app's install icons (public/icon-*.png, public/apple-touch-icon.png) from the Rootline mark, the same
// drawing as public/favicon.svg. Run after changing the mark: `pnpm --filter @rootline/web run icons`; the PNGs are
// committed, so a build needs no image tools.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const PUBLIC = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
/** --green and --on-dark of the design tokens (src/styles.css). */
const GREEN = '#2f6b3a';
const WHITE = '#ffffff';
const SPRIG = 'M16 26V12m0 6c-4 0-7-3-7-7 4 0 7 3 7 7zm0-3c0-4 3-7 7-7 0 4-3 7-7 7z';

/** The mark on a transparent square: a green disc with the white sprig, as the favicon. */
const ROUND = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="${GREEN}"/><path d="${SPRIG}" stroke="${WHITE}" stroke-width="2" fill="none"/></svg>`;

/**
 * The mark for a maskable icon and the home screen of iOS: green to every edge, the sprig inside the middle 60 %,
 * well within the safe zone (a circle of 80 % of the side) that every mask shape keeps.
 */
const FULL_BLEED = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${GREEN}"/><g transform="translate(16 16) scale(0.75) translate(-16 -18)"><path d="${SPRIG}" stroke="${WHITE}" stroke-width="2" fill="none"/></g></svg>`;

const ICONS: { file: string; svg: string; size: number }[] = [
  { file: 'icon-192.png', svg: ROUND, size: 192 },
  { file: 'icon-512.png', svg: ROUND, size: 512 },
  { file: 'icon-maskable-512.png', svg: FULL_BLEED, size: 512 },
  { file: 'apple-touch-icon.png', svg: FULL_BLEED, size: 180 },
];

for (const icon of ICONS) {
  await sharp(Buffer.from(icon.svg), { density: (72 * icon.size) / 32 })
    .resize(icon.size, icon.size)
    .png({ compressionLevel: 9 })
    .toFile(join(PUBLIC, icon.file));
  console.log(`${icon.file} ${icon.size}×${icon.size}`);
}
