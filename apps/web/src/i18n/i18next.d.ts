import 'i18next';
import type { EN } from './resources';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'app';
    resources: typeof EN;
  }
}
