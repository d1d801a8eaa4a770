/** Photos are sent at most this long on their longest side (px): enough for any screen, a fraction of a camera's. */
export const UPLOAD_MAX_SIDE = 2048;
/** JPEG quality of a photo made smaller before it is sent. */
export const UPLOAD_QUALITY = 0.85;

/** The size of a `width`×`height` image scaled down to fit `maxSide` on its longest side (never scaled up). */
export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const longest = Math.max(width, height);
  if (longest <= maxSide) return { width, height };
  const scale = maxSide / longest;
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The name of a photo sent as JPEG: its own name with a .jpg ending ("photo.jpg" when it has none). */
export function jpegName(name: string): string {
  const base = name.replace(/\.[^./\\]*$/, '') || 'photo';
  return `${base}.jpg`;
}
