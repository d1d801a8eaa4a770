import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/app.json';

registerEnglish('app', english);

/** Words of the app itself, outside any one feature. */
export const APP = {
  update: {
    get message() {
      return t('app:update.message');
    },
    get reload() {
      return t('app:update.reload');
    },
  },
};
