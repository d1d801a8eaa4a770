import { registerEnglish, t } from '../../i18n';
import english from '../../locales/en/organizations.json';
import type { OrgKind, OrgRole } from './api/organizations';

registerEnglish('organizations', english);

/** A person's word for each organization kind. */
export const KIND_LABELS: Record<OrgKind, string> = {
  get 'co-op'() {
    return t('organizations:kinds.co-op');
  },
  get 'seed-library'() {
    return t('organizations:kinds.seed-library');
  },
  get farm() {
    return t('organizations:kinds.farm');
  },
  get company() {
    return t('organizations:kinds.company');
  },
  get other() {
    return t('organizations:kinds.other');
  },
};

/** A person's word for each role in an organization, as a label or a choice. */
export const ROLE_LABELS: Record<OrgRole, string> = {
  get owner() {
    return t('organizations:roles.owner');
  },
  get manager() {
    return t('organizations:roles.manager');
  },
  get member() {
    return t('organizations:roles.member');
  },
  get viewer() {
    return t('organizations:roles.viewer');
  },
};

/** Each role as it reads inside a sentence ("joined as member", German keeps its capital). */
export const ROLE_IN_TEXT: Record<OrgRole, string> = {
  get owner() {
    return t('organizations:roleInText.owner');
  },
  get manager() {
    return t('organizations:roleInText.manager');
  },
  get member() {
    return t('organizations:roleInText.member');
  },
  get viewer() {
    return t('organizations:roleInText.viewer');
  },
};

/** Every text of the organization pages, in one place. */
export const ORGS = {
  list: {
    get title() {
      return t('organizations:list.title');
    },
    get lead() {
      return t('organizations:list.lead');
    },
    get find() {
      return t('organizations:list.find');
    },
    get search() {
      return t('organizations:list.search');
    },
    get kind() {
      return t('organizations:list.kind');
    },
    get anyKind() {
      return t('organizations:list.anyKind');
    },
    get submit() {
      return t('organizations:list.submit');
    },
    found: (total: number) => t('organizations:list.found', { count: total }),
    get none() {
      return t('organizations:list.none');
    },
    get mine() {
      return t('organizations:list.mine');
    },
    get create() {
      return t('organizations:list.create');
    },
  },
  mine: {
    get title() {
      return t('organizations:mine.title');
    },
    get lead() {
      return t('organizations:mine.lead');
    },
    get none() {
      return t('organizations:mine.none');
    },
    role: (role: string) => t('organizations:mine.role', { role }),
    members: (name: string) => t('organizations:mine.members', { name }),
  },
  form: {
    get title() {
      return t('organizations:form.title');
    },
    get lead() {
      return t('organizations:form.lead');
    },
    get name() {
      return t('organizations:form.name');
    },
    get kind() {
      return t('organizations:form.kind');
    },
    get description() {
      return t('organizations:form.description');
    },
    get website() {
      return t('organizations:form.website');
    },
    get websiteHint() {
      return t('organizations:form.websiteHint');
    },
    get latitude() {
      return t('organizations:form.latitude');
    },
    get longitude() {
      return t('organizations:form.longitude');
    },
    get city() {
      return t('organizations:form.city');
    },
    get country() {
      return t('organizations:form.country');
    },
    get privacy() {
      return t('organizations:form.privacy');
    },
    privacyLevels: {
      get exact() {
        return t('organizations:form.privacyLevels.exact');
      },
      get fuzzy() {
        return t('organizations:form.privacyLevels.fuzzy');
      },
      get city() {
        return t('organizations:form.privacyLevels.city');
      },
      get country() {
        return t('organizations:form.privacyLevels.country');
      },
      get hidden() {
        return t('organizations:form.privacyLevels.hidden');
      },
    },
    get submit() {
      return t('organizations:form.submit');
    },
    get busy() {
      return t('organizations:form.busy');
    },
  },
  profile: {
    members: (n: number) => t('organizations:profile.members', { count: n }),
    get website() {
      return t('organizations:profile.website');
    },
    get where() {
      return t('organizations:profile.where');
    },
    get hidden() {
      return t('organizations:profile.hidden');
    },
    get manage() {
      return t('organizations:profile.manage');
    },
    get notFound() {
      return t('organizations:profile.notFound');
    },
  },
  members: {
    title: (name: string) => t('organizations:members.title', { name }),
    get lead() {
      return t('organizations:members.lead');
    },
    get tableLabel() {
      return t('organizations:members.tableLabel');
    },
    columns: {
      get name() {
        return t('organizations:members.columns.name');
      },
      get role() {
        return t('organizations:members.columns.role');
      },
      get joined() {
        return t('organizations:members.columns.joined');
      },
      get actions() {
        return t('organizations:members.columns.actions');
      },
    },
    get you() {
      return t('organizations:members.you');
    },
    roleOf: (name: string) => t('organizations:members.roleOf', { name }),
    get change() {
      return t('organizations:members.change');
    },
    changeFor: (name: string) => t('organizations:members.changeFor', { name }),
    changed: (name: string, role: string) => t('organizations:members.changed', { name, role }),
    get remove() {
      return t('organizations:members.remove');
    },
    removeFor: (name: string) => t('organizations:members.removeFor', { name }),
    get leave() {
      return t('organizations:members.leave');
    },
    get left() {
      return t('organizations:members.left');
    },
    get lastOwner() {
      return t('organizations:members.lastOwner');
    },
    get ownerOnly() {
      return t('organizations:members.ownerOnly');
    },
  },
  invitations: {
    get title() {
      return t('organizations:invitations.title');
    },
    get invite() {
      return t('organizations:invitations.invite');
    },
    get email() {
      return t('organizations:invitations.email');
    },
    get role() {
      return t('organizations:invitations.role');
    },
    get submit() {
      return t('organizations:invitations.submit');
    },
    sent: (email: string) => t('organizations:invitations.sent', { email }),
    get pending() {
      return t('organizations:invitations.pending');
    },
    get none() {
      return t('organizations:invitations.none');
    },
    expires: (when: string) => t('organizations:invitations.expires', { when }),
    get revoke() {
      return t('organizations:invitations.revoke');
    },
    revokeFor: (email: string) => t('organizations:invitations.revokeFor', { email }),
    revoked: (email: string) => t('organizations:invitations.revoked', { email }),
  },
  accept: {
    get title() {
      return t('organizations:accept.title');
    },
    lead: (inviter: string, org: string, role: string) => t('organizations:accept.lead', { inviter, org, role }),
    get accept() {
      return t('organizations:accept.accept');
    },
    get decline() {
      return t('organizations:accept.decline');
    },
    accepted: (org: string, role: string) => t('organizations:accept.accepted', { org, role }),
    declined: (org: string) => t('organizations:accept.declined', { org }),
    get open() {
      return t('organizations:accept.open');
    },
    get missing() {
      return t('organizations:accept.missing');
    },
    get signInFirst() {
      return t('organizations:accept.signInFirst');
    },
    get signIn() {
      return t('organizations:accept.signIn');
    },
    get signUp() {
      return t('organizations:accept.signUp');
    },
    get invalid() {
      return t('organizations:accept.invalid');
    },
  },
};
