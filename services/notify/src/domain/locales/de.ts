import type { Catalog } from './en.js';

export const de: Catalog = {
  welcome: {
    title: 'Willkommen bei Rootline',
    body: 'Dein Konto ist bereit. Registriere deine erste Pflanze, um ihre Abstammung im Register zu beginnen.',
  },
  plantRegistered: {
    title: '{{commonName}} ist registriert',
    body: '{{commonName}} ist im Register als {{plantId}} eingetragen.',
  },
  demandMatchGrower: {
    title: 'Ein Haushalt in deiner Nähe möchte {{crop}}',
    body: 'Dein Angebot passt zu {{quantityKg}} kg {{crop}}, im Umkreis von {{band}} km.',
  },
  demandMatchConsumer: {
    title: '{{crop}} aus deiner Nähe',
    body: 'Ein Erzeuger kann {{quantityKg}} kg {{crop}} liefern, {{distance}} entfernt.',
  },
  offerMade: { title: 'Neues Angebot für dein Inserat', body: 'Ein Angebot über {{quantity}} zu je {{price}}.' },
  offerAccepted: {
    title: 'Angebot angenommen',
    body: 'Das Angebot über {{quantity}} zu je {{price}} wurde angenommen.',
  },
  verifyEmail: {
    title: 'Bestätige deine E-Mail-Adresse',
    body: 'Öffne diesen Link, um deine Adresse zu bestätigen: {{link}}\nWenn du ihn nicht angefordert hast, ignoriere diese E-Mail.',
  },
  resetPassword: {
    title: 'Setze dein Passwort zurück',
    body:
      'Öffne diesen Link, um ein neues Passwort zu wählen: {{link}}\n' +
      'Wenn du ihn nicht angefordert hast, ignoriere diese E-Mail; dein Passwort bleibt unverändert.',
  },
  weeklyDigest: { title: 'Deine Woche bei Rootline', body: 'In der Woche vom {{weekStart}}:' },
  transportArriving: {
    plant: 'Pflanze {{id}}',
    seedLot: 'Saatgutpartie {{id}}',
    title: '{{what}} ist auf dem Weg zu dir',
    body: '{{what}} wurde an dich weitergegeben ({{kind}}).',
    bodyDistance: '{{what}} wurde an dich weitergegeben ({{kind}}, {{distance}}).',
  },
  farmAlert: {
    title: '{{farmName}}: Messwerte außerhalb des Bereichs',
    body_one: '{{count}} Messwert der Charge {{batchId}} lag außerhalb der Zielwerte ({{metrics}}).',
    body_other: '{{count}} Messwerte der Charge {{batchId}} lagen außerhalb der Zielwerte ({{metrics}}).',
  },
  harvestReady: {
    title: '{{crop}} ist erntereif',
    body: 'Die Charge {{batchId}} bei {{farmName}} hat ihr erwartetes Erntedatum erreicht.',
  },
  webhookDisabled: {
    title: 'Einer deiner Webhooks wurde deaktiviert',
    gone: 'sein Empfänger mit 410 Gone antwortete',
    failing: 'jede Zustellung an ihn fehlgeschlagen ist',
    failingSince: 'jede Zustellung an ihn seit {{since}} fehlgeschlagen ist',
    body:
      'Dein Webhook {{webhookId}} ({{url}}) wurde deaktiviert, weil {{why}}. Es wird nichts mehr an ihn zugestellt; ' +
      'repariere den Empfänger, setze den Webhook dann wieder aktiv (PATCH /api/transparency/webhooks/{{webhookId}} ' +
      'mit {"status":"active"}) und stelle erneut zu, was er verpasst hat.',
  },
  passwordChanged: {
    title: 'Dein Passwort wurde geändert',
    body: 'Das Passwort deines Rootline-Kontos wurde gerade geändert. Warst du es nicht, setze es sofort zurück.',
  },
  organizationInvitation: {
    title: '{{invitedByName}} lädt Sie zu {{organizationName}} ein',
    body: '{{invitedByName}} lädt Sie ein, {{organizationName}} auf Rootline beizutreten, mit der Rolle: {{role}}. Öffnen Sie diesen Link, um anzunehmen oder abzulehnen (melden Sie sich zuerst an oder legen Sie ein Konto an): {{action}}\nDer Link funktioniert einmal. Wenn Sie die Person nicht kennen, ignorieren Sie diese E-Mail.',
    roleOwner: 'Eigentümer',
    roleManager: 'Verwalter',
    roleMember: 'Mitglied',
    roleViewer: 'Betrachter',
  },
  seedLoan: {
    lentTitle: '{{name}} an dich verliehen',
    lent: '{{from}} hat dir {{quantity}} von {{name}} verliehen. Bring bis Ende {{due}} Saatgut zurück, das du aus dem Angebauten gewonnen hast: auf deiner Seite der Ausleihen.',
    spring: 'Frühling',
    summer: 'Sommer',
    autumn: 'Herbst',
    winter: 'Winter',
    seeds: 'Samen',
    grams: 'Gramm',
    packets: 'Tütchen',
  },
  transfer: {
    proposedTitle: '{{name}} wird dir angeboten',
    proposed:
      '{{from}} möchte {{name}} an {{to}} übertragen. Nimm es auf deiner Seite der Übertragungen an oder lehne es ab.',
    acceptedTitle: '{{name}} hat den Besitzer gewechselt',
    accepted: '{{to}} hat {{name}} von {{from}} übernommen. Die Übertragung steht im Ledger.',
    declinedTitle: 'Übertragung von {{name}} abgelehnt',
    declined: '{{to}} hat {{name}} von {{from}} abgelehnt.',
    cancelledTitle: 'Übertragung von {{name}} zurückgezogen',
    cancelled: '{{from}} hat das Angebot von {{name}} an {{to}} zurückgezogen.',
  },
  organizationChange: {
    roleOwner: 'Eigentümer',
    roleManager: 'Verwalter',
    roleMember: 'Mitglied',
    roleViewer: 'Betrachter',
    someMember: 'Ein Mitglied',
    someManager: 'Ein Eigentümer oder Verwalter',
    invitationSentTitle: '{{org}}: Einladung gesendet',
    invitationSent: '{{name}} hat jemanden zu {{org}} eingeladen.',
    invitationSentAs: '{{name}} hat jemanden als {{role}} zu {{org}} eingeladen.',
    memberAddedTitle: '{{org}}: neues Mitglied',
    memberAdded: '{{name}} ist {{org}} beigetreten.',
    memberAddedAs: '{{name}} ist {{org}} als {{role}} beigetreten.',
    youJoined: 'Du bist {{org}} beigetreten.',
    youJoinedAs: 'Du bist {{org}} als {{role}} beigetreten.',
    roleChangedTitle: '{{org}}: Rolle geändert',
    roleChanged: '{{name}} ist jetzt {{role}} von {{org}}.',
    roleChangedWas: '{{name}} ist jetzt {{role}} von {{org}} (vorher {{previous}}).',
    youRoleChanged: 'Du bist jetzt {{role}} von {{org}}.',
    youRoleChangedWas: 'Du bist jetzt {{role}} von {{org}} (vorher {{previous}}).',
    memberRemovedTitle: '{{org}}: Mitglied entfernt',
    memberRemoved: '{{name}} wurde aus {{org}} entfernt.',
    youRemoved: 'Du wurdest aus {{org}} entfernt.',
    memberLeftTitle: '{{org}}: Mitglied ausgetreten',
    memberLeft: '{{name}} hat {{org}} verlassen.',
    youLeft: 'Du hast {{org}} verlassen.',
    invitationDeclinedTitle: '{{org}}: Einladung abgelehnt',
    invitationDeclined: '{{name}} hat die Einladung zu {{org}} abgelehnt.',
    invitationRevokedTitle: '{{org}}: Einladung zurückgezogen',
    invitationRevoked: '{{name}} hat eine Einladung zu {{org}} zurückgezogen.',
    dissolvedTitle: '{{org}} wurde aufgelöst',
    dissolved: '{{name}} hat {{org}} aufgelöst.',
  },
  email: {
    greeting: 'Hallo {{name}},',
    unsubscribe: 'Um diese E-Mails abzubestellen, öffne {{url}}',
    signature: 'Rootline',
  },
};
