import { fitWithin, jpegName, UPLOAD_MAX_SIDE, UPLOAD_QUALITY } from './fit';

/**
 * The photo as it is sent (docs/install-and-offline.md): decoded with its EXIF orientation
 * applied, scaled to at most UPLOAD_MAX_SIDE on its longest side and encoded again as JPEG. Encoding again drops
 * every metadata field, where the photo was taken included. A file this browser cannot decode (AVIF on an older
 * one) is sent as chosen; the server still checks it and strips location from every copy it shows.
 */
export async function preparePhoto(file: File): Promise<File> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return file;
  }
  try {
    const { width, height } = fitWithin(bitmap.width, bitmap.height, UPLOAD_MAX_SIDE);
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    // A transparent PNG gets a white background rather than JPEG's black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, width, height);
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', UPLOAD_QUALITY));
    if (!blob) return file;
    return new File([blob], jpegName(file.name), { type: 'image/jpeg', lastModified: file.lastModified });
  } finally {
    bitmap.close();
  }
}
