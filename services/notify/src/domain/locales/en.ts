/**
 * The English texts of every message notify sends (in-app, push, email): the source the other languages are
 * translated from and the fallback when a text is missing. i18next syntax: `{{name}}` is a value, `_one`/`_other`
 * are plural forms chosen by Intl.PluralRules.
 */
export const en = {
  welcome: {
    title: 'Welcome to Rootline',
    body: 'Your account is ready. Register your first plant to start its lineage on the ledger.',
  },
  plantRegistered: {
    title: '{{commonName}} is registered',
    body: '{{commonName}} is recorded on the ledger as {{plantId}}.',
  },
  demandMatchGrower: {
    title: 'A household near you wants {{crop}}',
    body: 'Your supply matches {{quantityKg}} kg of {{crop}}, within {{band}} km.',
  },
  demandMatchConsumer: {
    title: '{{crop}} grown near you',
    body: 'A grower can supply {{quantityKg}} kg of {{crop}}, {{distance}} away.',
  },
  offerMade: { title: 'New offer on your listing', body: 'An offer for {{quantity}} at {{price}} each.' },
  offerAccepted: { title: 'Offer accepted', body: 'The offer for {{quantity}} at {{price}} each was accepted.' },
  verifyEmail: {
    title: 'Confirm your email address',
    body: 'Open this link to confirm your address: {{link}}\nIf you did not ask for it, ignore this email.',
  },
  resetPassword: {
    title: 'Reset your password',
    body:
      'Open this link to choose a new password: {{link}}\n' +
      'If you did not ask for it, ignore this email; your password stays as it is.',
  },
  weeklyDigest: { title: 'Your week on Rootline', body: 'In the week of {{weekStart}}:' },
  transportArriving: {
    plant: 'Plant {{id}}',
    seedLot: 'Seed lot {{id}}',
    title: '{{what}} is coming to you',
    body: '{{what}} was handed on to you ({{kind}}).',
    bodyDistance: '{{what}} was handed on to you ({{kind}}, {{distance}}).',
  },
  farmAlert: {
    title: '{{farmName}}: readings out of range',
    body_one: '{{count}} reading of batch {{batchId}} fell outside the targets ({{metrics}}).',
    body_other: '{{count}} readings of batch {{batchId}} fell outside the targets ({{metrics}}).',
  },
  harvestReady: {
    title: '{{crop}} is ready to harvest',
    body: 'Batch {{batchId}} at {{farmName}} reached its expected harvest date.',
  },
  webhookDisabled: {
    title: 'A webhook of yours was disabled',
    gone: 'its receiver answered 410 Gone',
    failing: 'every delivery to it has failed',
    failingSince: 'every delivery to it has failed since {{since}}',
    body:
      'Your webhook {{webhookId}} ({{url}}) was disabled because {{why}}. Deliveries to it have stopped; fix the ' +
      'receiver, then set the webhook active again (PATCH /api/transparency/webhooks/{{webhookId}} with ' +
      '{"status":"active"}) and redeliver what it missed.',
  },
  passwordChanged: {
    title: 'Your password was changed',
    body: 'The password of your Rootline account was just changed. If it was not you, reset it at once.',
  },
  organizationInvitation: {
    title: '{{invitedByName}} invited you to {{organizationName}}',
    body: '{{invitedByName}} invited you to join {{organizationName}} on Rootline as {{role}}. Open this link to accept or decline (sign in or create an account first): {{action}}\nThe link works once. If you do not know them, ignore this email.',
    roleOwner: 'an owner',
    roleManager: 'a manager',
    roleMember: 'a member',
    roleViewer: 'a viewer',
  },
  seedLoan: {
    lentTitle: '{{name}} lent to you',
    lent: '{{from}} lent you {{quantity}} of {{name}}. Bring back seed saved from what you grow by the end of {{due}}: return it on your loans page.',
    spring: 'spring',
    summer: 'summer',
    autumn: 'autumn',
    winter: 'winter',
    seeds: 'seeds',
    grams: 'grams',
    packets: 'packets',
  },
  transfer: {
    proposedTitle: '{{name}} is offered to you',
    proposed: '{{from}} offers to transfer {{name}} to {{to}}. Accept or decline it on your transfers page.',
    acceptedTitle: '{{name}} changed hands',
    accepted: '{{to}} accepted {{name}} from {{from}}. The transfer is on the ledger.',
    declinedTitle: 'Transfer of {{name}} declined',
    declined: '{{to}} declined {{name}} from {{from}}.',
    cancelledTitle: 'Transfer of {{name}} withdrawn',
    cancelled: '{{from}} withdrew the offer of {{name}} to {{to}}.',
  },
  organizationChange: {
    roleOwner: 'owner',
    roleManager: 'manager',
    roleMember: 'member',
    roleViewer: 'viewer',
    someMember: 'A member',
    someManager: 'An owner or manager',
    invitationSentTitle: '{{org}}: invitation sent',
    invitationSent: '{{name}} invited someone to {{org}}.',
    invitationSentAs: '{{name}} invited someone to {{org}} as {{role}}.',
    memberAddedTitle: '{{org}}: new member',
    memberAdded: '{{name}} joined {{org}}.',
    memberAddedAs: '{{name}} joined {{org}} as {{role}}.',
    youJoined: 'You joined {{org}}.',
    youJoinedAs: 'You joined {{org}} as {{role}}.',
    roleChangedTitle: '{{org}}: role changed',
    roleChanged: '{{name}} is now {{role}} of {{org}}.',
    roleChangedWas: '{{name}} is now {{role}} of {{org}} (was {{previous}}).',
    youRoleChanged: 'You are now {{role}} of {{org}}.',
    youRoleChangedWas: 'You are now {{role}} of {{org}} (was {{previous}}).',
    memberRemovedTitle: '{{org}}: member removed',
    memberRemoved: '{{name}} was removed from {{org}}.',
    youRemoved: 'You were removed from {{org}}.',
    memberLeftTitle: '{{org}}: member left',
    memberLeft: '{{name}} left {{org}}.',
    youLeft: 'You left {{org}}.',
    invitationDeclinedTitle: '{{org}}: invitation declined',
    invitationDeclined: '{{name}} declined the invitation to {{org}}.',
    invitationRevokedTitle: '{{org}}: invitation revoked',
    invitationRevoked: '{{name}} revoked an invitation to {{org}}.',
    dissolvedTitle: '{{org}} was dissolved',
    dissolved: '{{name}} dissolved {{org}}.',
  },
  email: {
    greeting: 'Hello {{name}},',
    unsubscribe: 'To stop these emails, open {{url}}',
    signature: 'Rootline',
  },
};

/** The shape every language's catalog has: the English one's keys, each a text. */
export type Catalog = { [K in keyof typeof en]: { [L in keyof (typeof en)[K]]: string } & Record<string, string> };
