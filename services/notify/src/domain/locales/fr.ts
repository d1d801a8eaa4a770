import type { Catalog } from './en.js';

export const fr: Catalog = {
  welcome: {
    title: 'Bienvenue sur Rootline',
    body: 'Votre compte est prêt. Enregistrez votre première plante pour commencer sa lignée dans le registre.',
  },
  plantRegistered: {
    title: '{{commonName}} est enregistrée',
    body: '{{commonName}} est inscrite au registre sous {{plantId}}.',
  },
  demandMatchGrower: {
    title: 'Un foyer près de chez vous cherche : {{crop}}',
    body: 'Votre offre correspond à {{quantityKg}} kg de {{crop}}, à moins de {{band}} km.',
  },
  demandMatchConsumer: {
    title: '{{crop}} cultivé près de chez vous',
    body: 'Un producteur peut fournir {{quantityKg}} kg de {{crop}}, à {{distance}}.',
  },
  offerMade: { title: 'Nouvelle offre sur votre annonce', body: 'Une offre pour {{quantity}} à {{price}} l’unité.' },
  offerAccepted: { title: 'Offre acceptée', body: 'L’offre pour {{quantity}} à {{price}} l’unité a été acceptée.' },
  verifyEmail: {
    title: 'Confirmez votre adresse e-mail',
    body: 'Ouvrez ce lien pour confirmer votre adresse : {{link}}\nSi vous ne l’avez pas demandé, ignorez cet e-mail.',
  },
  resetPassword: {
    title: 'Réinitialisez votre mot de passe',
    body:
      'Ouvrez ce lien pour choisir un nouveau mot de passe : {{link}}\n' +
      'Si vous ne l’avez pas demandé, ignorez cet e-mail ; votre mot de passe reste inchangé.',
  },
  weeklyDigest: { title: 'Votre semaine sur Rootline', body: 'Pendant la semaine du {{weekStart}} :' },
  transportArriving: {
    plant: 'La plante {{id}}',
    seedLot: 'Le lot de semences {{id}}',
    title: '{{what}} arrive chez vous',
    body: '{{what}} vous a été transmis ({{kind}}).',
    bodyDistance: '{{what}} vous a été transmis ({{kind}}, {{distance}}).',
  },
  farmAlert: {
    title: '{{farmName}} : mesures hors plage',
    body_one: '{{count}} mesure du lot {{batchId}} est sortie des cibles ({{metrics}}).',
    body_many: '{{count}} mesures du lot {{batchId}} sont sorties des cibles ({{metrics}}).',
    body_other: '{{count}} mesures du lot {{batchId}} sont sorties des cibles ({{metrics}}).',
  },
  harvestReady: {
    title: '{{crop}} est prêt à récolter',
    body: 'Le lot {{batchId}} chez {{farmName}} a atteint sa date de récolte prévue.',
  },
  webhookDisabled: {
    title: 'Un de vos webhooks a été désactivé',
    gone: 'son destinataire a répondu 410 Gone',
    failing: 'chaque envoi vers lui a échoué',
    failingSince: 'chaque envoi vers lui échoue depuis {{since}}',
    body:
      'Votre webhook {{webhookId}} ({{url}}) a été désactivé parce que {{why}}. Plus rien ne lui est envoyé ; ' +
      'réparez le destinataire, puis réactivez le webhook (PATCH /api/transparency/webhooks/{{webhookId}} avec ' +
      '{"status":"active"}) et renvoyez ce qu’il a manqué.',
  },
  passwordChanged: {
    title: 'Votre mot de passe a été modifié',
    body: 'Le mot de passe de votre compte Rootline vient d’être modifié. Si ce n’était pas vous, réinitialisez-le tout de suite.',
  },
  organizationInvitation: {
    title: '{{invitedByName}} vous invite à rejoindre {{organizationName}}',
    body: '{{invitedByName}} vous invite à rejoindre {{organizationName}} sur Rootline avec le rôle : {{role}}. Ouvrez ce lien pour accepter ou refuser (connectez-vous ou créez un compte d’abord) : {{action}}\nLe lien ne fonctionne qu’une fois. Si vous ne connaissez pas cette personne, ignorez cet e-mail.',
    roleOwner: 'propriétaire',
    roleManager: 'gestionnaire',
    roleMember: 'membre',
    roleViewer: 'observateur',
  },
  transfer: {
    proposedTitle: '{{name}} vous est proposé',
    proposed: '{{from}} propose de transférer {{name}} à {{to}}. Acceptez ou refusez sur votre page des transferts.',
    acceptedTitle: '{{name}} a changé de mains',
    accepted: '{{to}} a accepté {{name}} de {{from}}. Le transfert est inscrit au registre.',
    declinedTitle: 'Transfert de {{name}} refusé',
    declined: '{{to}} a refusé {{name}} de {{from}}.',
    cancelledTitle: 'Transfert de {{name}} retiré',
    cancelled: '{{from}} a retiré l’offre de {{name}} à {{to}}.',
  },
  organizationChange: {
    roleOwner: 'propriétaire',
    roleManager: 'gestionnaire',
    roleMember: 'membre',
    roleViewer: 'observateur',
    someMember: 'Un membre',
    someManager: 'Un propriétaire ou un gestionnaire',
    invitationSentTitle: '{{org}} : invitation envoyée',
    invitationSent: '{{name}} a invité quelqu’un à rejoindre {{org}}.',
    invitationSentAs: '{{name}} a invité quelqu’un à rejoindre {{org}} en tant que {{role}}.',
    memberAddedTitle: '{{org}} : nouveau membre',
    memberAdded: '{{name}} a rejoint {{org}}.',
    memberAddedAs: '{{name}} a rejoint {{org}} en tant que {{role}}.',
    youJoined: 'Vous avez rejoint {{org}}.',
    youJoinedAs: 'Vous avez rejoint {{org}} en tant que {{role}}.',
    roleChangedTitle: '{{org}} : rôle modifié',
    roleChanged: '{{name}} est désormais {{role}} de {{org}}.',
    roleChangedWas: '{{name}} est désormais {{role}} de {{org}} (auparavant {{previous}}).',
    youRoleChanged: 'Vous êtes désormais {{role}} de {{org}}.',
    youRoleChangedWas: 'Vous êtes désormais {{role}} de {{org}} (auparavant {{previous}}).',
    memberRemovedTitle: '{{org}} : membre retiré',
    memberRemoved: '{{name}} a été retiré de {{org}}.',
    youRemoved: 'Vous avez été retiré de {{org}}.',
    memberLeftTitle: '{{org}} : départ d’un membre',
    memberLeft: '{{name}} a quitté {{org}}.',
    youLeft: 'Vous avez quitté {{org}}.',
    invitationDeclinedTitle: '{{org}} : invitation refusée',
    invitationDeclined: '{{name}} a refusé l’invitation à rejoindre {{org}}.',
    invitationRevokedTitle: '{{org}} : invitation annulée',
    invitationRevoked: '{{name}} a annulé une invitation à rejoindre {{org}}.',
    dissolvedTitle: 'L’organisation {{org}} a été dissoute',
    dissolved: '{{name}} a dissous {{org}}.',
  },
  email: {
    greeting: 'Bonjour {{name}},',
    unsubscribe: 'Pour ne plus recevoir ces e-mails, ouvrez {{url}}',
    signature: 'Rootline',
  },
};
