import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/media.json';

registerEnglish('media', english);

/** Words of the photos of a plant (features/media). */
export const MEDIA = {
  get title() {
    return t('media:title');
  },
  get none() {
    return t('media:none');
  },
  get upload() {
    return t('media:upload');
  },
  /** Shown on phones and tablets: opens the camera at once. */
  get take() {
    return t('media:take');
  },
  get hint() {
    return t('media:hint');
  },
  get busy() {
    return t('media:busy');
  },
  get added() {
    return t('media:added');
  },
  /** What a photo of the plant shows, as the lists say it (ADR 203). */
  alt: (plant: string, i: number, n: number) =>
    n > 1 ? t('media:altOf', { index: i + 1, total: n, plant }) : t('media:alt', { plant }),
  uploading: (plant: string) => t('media:uploading', { plant }),
} as const;
