import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/auth.json';

registerEnglish('auth', english);
/** How each role is named to people. */
export const ROLE_NAMES: Record<string, string> = {
  get USER() {
    return t('auth:roleNames.USER');
  },
  get GROWER() {
    return t('auth:roleNames.GROWER');
  },
  get FARM_MANAGER() {
    return t('auth:roleNames.FARM_MANAGER');
  },
  get ADMIN() {
    return t('auth:roleNames.ADMIN');
  },
};

/** Every text of the account pages, in one place. */
export const AUTH = {
  signIn: {
    get title() {
      return t('auth:signIn.title');
    },
    get lead() {
      return t('auth:signIn.lead');
    },
    get email() {
      return t('auth:signIn.email');
    },
    get password() {
      return t('auth:signIn.password');
    },
    get submit() {
      return t('auth:signIn.submit');
    },
    get busy() {
      return t('auth:signIn.busy');
    },
    get forgot() {
      return t('auth:signIn.forgot');
    },
    get noAccount() {
      return t('auth:signIn.noAccount');
    },
    get signUp() {
      return t('auth:signIn.signUp');
    },
    get providers() {
      return t('auth:signIn.providers');
    },
    providerButton: (name: string) => t('auth:signIn.providerButton', { name }),
  },
  signUp: {
    get title() {
      return t('auth:signUp.title');
    },
    get lead() {
      return t('auth:signUp.lead');
    },
    get name() {
      return t('auth:signUp.name');
    },
    get nameHint() {
      return t('auth:signUp.nameHint');
    },
    get email() {
      return t('auth:signUp.email');
    },
    get password() {
      return t('auth:signUp.password');
    },
    get passwordHint() {
      return t('auth:signUp.passwordHint');
    },
    get submit() {
      return t('auth:signUp.submit');
    },
    get busy() {
      return t('auth:signUp.busy');
    },
    get done() {
      return t('auth:signUp.done');
    },
    get anonymous() {
      return t('auth:signUp.anonymous');
    },
  },
  verify: {
    get mine() {
      return t('auth:verify.mine');
    },
    get title() {
      return t('auth:verify.title');
    },
    get busy() {
      return t('auth:verify.busy');
    },
    get done() {
      return t('auth:verify.done');
    },
    get missing() {
      return t('auth:verify.missing');
    },
    get resend() {
      return t('auth:verify.resend');
    },
    get resent() {
      return t('auth:verify.resent');
    },
  },
  forgot: {
    get title() {
      return t('auth:forgot.title');
    },
    get lead() {
      return t('auth:forgot.lead');
    },
    get email() {
      return t('auth:forgot.email');
    },
    get submit() {
      return t('auth:forgot.submit');
    },
    get done() {
      return t('auth:forgot.done');
    },
  },
  reset: {
    get signIn() {
      return t('auth:reset.signIn');
    },
    get title() {
      return t('auth:reset.title');
    },
    get password() {
      return t('auth:reset.password');
    },
    get submit() {
      return t('auth:reset.submit');
    },
    get done() {
      return t('auth:reset.done');
    },
    get missing() {
      return t('auth:reset.missing');
    },
  },
  account: {
    get title() {
      return t('auth:account.title');
    },
    signedInAs: (name: string, email: string) => t('auth:account.signedInAs', { name, email }),
    role: (role: string) => t('auth:account.role', { role: ROLE_NAMES[role] ?? role }),
    get unverified() {
      return t('auth:account.unverified');
    },
    get language() {
      return t('auth:account.language');
    },
    get signOut() {
      return t('auth:account.signOut');
    },
    get menu() {
      return t('auth:account.menu');
    },
  },
  tokens: {
    get title() {
      return t('auth:tokens.title');
    },
    get lead() {
      return t('auth:tokens.lead');
    },
    get name() {
      return t('auth:tokens.name');
    },
    get permissions() {
      return t('auth:tokens.permissions');
    },
    get allPermissions() {
      return t('auth:tokens.allPermissions');
    },
    get expires() {
      return t('auth:tokens.expires');
    },
    get create() {
      return t('auth:tokens.create');
    },
    get created() {
      return t('auth:tokens.created');
    },
    get tokenLabel() {
      return t('auth:tokens.tokenLabel');
    },
    get copy() {
      return t('auth:tokens.copy');
    },
    get none() {
      return t('auth:tokens.none');
    },
    revoke: (name: string) => t('auth:tokens.revoke', { name }),
    columns: {
      get name() {
        return t('auth:tokens.columns.name');
      },
      get scopes() {
        return t('auth:tokens.columns.scopes');
      },
      get created() {
        return t('auth:tokens.columns.created');
      },
      get lastUsed() {
        return t('auth:tokens.columns.lastUsed');
      },
      get actions() {
        return t('auth:tokens.columns.actions');
      },
    },
    get never() {
      return t('auth:tokens.never');
    },
    get all() {
      return t('auth:tokens.all');
    },
  },
};
