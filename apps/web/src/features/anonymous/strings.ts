import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/anonymous.json';

registerEnglish('anonymous', english);
/** Every text of the anonymous registration page, in one place. */
export const ANONYMOUS = {
  get title() {
    return t('anonymous:title');
  },
  get lead() {
    return t('anonymous:lead');
  },
  get commonName() {
    return t('anonymous:commonName');
  },
  get scientificName() {
    return t('anonymous:scientificName');
  },
  get pseudonym() {
    return t('anonymous:pseudonym');
  },
  get pseudonymHint() {
    return t('anonymous:pseudonymHint');
  },
  get submit() {
    return t('anonymous:submit');
  },
  get busy() {
    return t('anonymous:busy');
  },
  get unsupported() {
    return t('anonymous:unsupported');
  },
  get missingLocation() {
    return t('anonymous:missingLocation');
  },
  result: {
    get title() {
      return t('anonymous:result.title');
    },
    get plant() {
      return t('anonymous:result.plant');
    },
    get anonymousId() {
      return t('anonymous:result.anonymousId');
    },
    get wallet() {
      return t('anonymous:result.wallet');
    },
    get pseudonym() {
      return t('anonymous:result.pseudonym');
    },
    get noPseudonym() {
      return t('anonymous:result.noPseudonym');
    },
    get block() {
      return t('anonymous:result.block');
    },
    get publicKey() {
      return t('anonymous:result.publicKey');
    },
    get open() {
      return t('anonymous:result.open');
    },
  },
  key: {
    get title() {
      return t('anonymous:key.title');
    },
    get warning() {
      return t('anonymous:key.warning');
    },
    get download() {
      return t('anonymous:key.download');
    },
    get qr() {
      return t('anonymous:key.qr');
    },
    get show() {
      return t('anonymous:key.show');
    },
    get hide() {
      return t('anonymous:key.hide');
    },
    get label() {
      return t('anonymous:key.label');
    },
  },
};
