import type { Catalog } from './en.js';

export const nl: Catalog = {
  welcome: {
    title: 'Welkom bij Rootline',
    body: 'Je account is klaar. Registreer je eerste plant om haar afstamming in het grootboek te beginnen.',
  },
  plantRegistered: {
    title: '{{commonName}} is geregistreerd',
    body: '{{commonName}} staat in het grootboek als {{plantId}}.',
  },
  demandMatchGrower: {
    title: 'Een huishouden bij jou in de buurt wil {{crop}}',
    body: 'Je aanbod past bij {{quantityKg}} kg {{crop}}, binnen {{band}} km.',
  },
  demandMatchConsumer: {
    title: '{{crop}} gekweekt bij jou in de buurt',
    body: 'Een kweker kan {{quantityKg}} kg {{crop}} leveren, op {{distance}} afstand.',
  },
  offerMade: { title: 'Nieuw bod op je aanbieding', body: 'Een bod voor {{quantity}} à {{price}} per stuk.' },
  offerAccepted: { title: 'Bod aanvaard', body: 'Het bod voor {{quantity}} à {{price}} per stuk is aanvaard.' },
  verifyEmail: {
    title: 'Bevestig je e-mailadres',
    body: 'Open deze link om je adres te bevestigen: {{link}}\nHeb je hier niet om gevraagd, negeer dan deze e-mail.',
  },
  resetPassword: {
    title: 'Stel je wachtwoord opnieuw in',
    body:
      'Open deze link om een nieuw wachtwoord te kiezen: {{link}}\n' +
      'Heb je hier niet om gevraagd, negeer dan deze e-mail; je wachtwoord blijft zoals het is.',
  },
  weeklyDigest: { title: 'Jouw week op Rootline', body: 'In de week van {{weekStart}}:' },
  transportArriving: {
    plant: 'Plant {{id}}',
    seedLot: 'Zaadpartij {{id}}',
    title: '{{what}} komt naar je toe',
    body: '{{what}} is aan je doorgegeven ({{kind}}).',
    bodyDistance: '{{what}} is aan je doorgegeven ({{kind}}, {{distance}}).',
  },
  farmAlert: {
    title: '{{farmName}}: metingen buiten bereik',
    body_one: '{{count}} meting van partij {{batchId}} viel buiten de streefwaarden ({{metrics}}).',
    body_other: '{{count}} metingen van partij {{batchId}} vielen buiten de streefwaarden ({{metrics}}).',
  },
  harvestReady: {
    title: '{{crop}} is klaar om te oogsten',
    body: 'Partij {{batchId}} bij {{farmName}} heeft de verwachte oogstdatum bereikt.',
  },
  webhookDisabled: {
    title: 'Een webhook van je is uitgeschakeld',
    gone: 'de ontvanger antwoordde 410 Gone',
    failing: 'elke levering eraan is mislukt',
    failingSince: 'elke levering eraan is mislukt sinds {{since}}',
    body:
      'Je webhook {{webhookId}} ({{url}}) is uitgeschakeld omdat {{why}}. Er wordt niets meer aan geleverd; herstel ' +
      'de ontvanger, zet de webhook dan weer actief (PATCH /api/transparency/webhooks/{{webhookId}} met ' +
      '{"status":"active"}) en lever opnieuw wat hij gemist heeft.',
  },
  passwordChanged: {
    title: 'Je wachtwoord is gewijzigd',
    body: 'Het wachtwoord van je Rootline-account is zojuist gewijzigd. Was jij het niet, stel het dan meteen opnieuw in.',
  },
  organizationInvitation: {
    title: '{{invitedByName}} nodigt je uit voor {{organizationName}}',
    body: '{{invitedByName}} nodigt je uit om lid te worden van {{organizationName}} op Rootline met de rol: {{role}}. Open deze link om aan te nemen of af te slaan (log eerst in of maak een account aan): {{action}}\nDe link werkt één keer. Ken je de afzender niet, negeer deze e-mail dan.',
    roleOwner: 'eigenaar',
    roleManager: 'beheerder',
    roleMember: 'lid',
    roleViewer: 'kijker',
  },
  transfer: {
    proposedTitle: '{{name}} wordt je aangeboden',
    proposed: '{{from}} wil {{name}} overdragen aan {{to}}. Neem het aan of sla het af op je overdrachtenpagina.',
    acceptedTitle: '{{name}} is overgedragen',
    accepted: '{{to}} heeft {{name}} van {{from}} aangenomen. De overdracht staat in het grootboek.',
    declinedTitle: 'Overdracht van {{name}} afgeslagen',
    declined: '{{to}} heeft {{name}} van {{from}} afgeslagen.',
    cancelledTitle: 'Overdracht van {{name}} ingetrokken',
    cancelled: '{{from}} heeft het aanbod van {{name}} aan {{to}} ingetrokken.',
  },
  organizationChange: {
    roleOwner: 'eigenaar',
    roleManager: 'beheerder',
    roleMember: 'lid',
    roleViewer: 'kijker',
    someMember: 'Een lid',
    someManager: 'Een eigenaar of beheerder',
    invitationSentTitle: '{{org}}: uitnodiging verstuurd',
    invitationSent: '{{name}} heeft iemand uitgenodigd voor {{org}}.',
    invitationSentAs: '{{name}} heeft iemand uitgenodigd voor {{org}} als {{role}}.',
    memberAddedTitle: '{{org}}: nieuw lid',
    memberAdded: '{{name}} is lid geworden van {{org}}.',
    memberAddedAs: '{{name}} is bij {{org}} gekomen als {{role}}.',
    youJoined: 'Je bent lid geworden van {{org}}.',
    youJoinedAs: 'Je bent bij {{org}} gekomen als {{role}}.',
    roleChangedTitle: '{{org}}: rol gewijzigd',
    roleChanged: '{{name}} is nu {{role}} van {{org}}.',
    roleChangedWas: '{{name}} is nu {{role}} van {{org}} (was {{previous}}).',
    youRoleChanged: 'Je bent nu {{role}} van {{org}}.',
    youRoleChangedWas: 'Je bent nu {{role}} van {{org}} (was {{previous}}).',
    memberRemovedTitle: '{{org}}: lid verwijderd',
    memberRemoved: '{{name}} is uit {{org}} verwijderd.',
    youRemoved: 'Je bent uit {{org}} verwijderd.',
    memberLeftTitle: '{{org}}: lid vertrokken',
    memberLeft: '{{name}} heeft {{org}} verlaten.',
    youLeft: 'Je hebt {{org}} verlaten.',
    invitationDeclinedTitle: '{{org}}: uitnodiging afgeslagen',
    invitationDeclined: '{{name}} heeft de uitnodiging voor {{org}} afgeslagen.',
    invitationRevokedTitle: '{{org}}: uitnodiging ingetrokken',
    invitationRevoked: '{{name}} heeft een uitnodiging voor {{org}} ingetrokken.',
    dissolvedTitle: '{{org}} is opgeheven',
    dissolved: '{{name}} heeft {{org}} opgeheven.',
  },
  email: {
    greeting: 'Hallo {{name}},',
    unsubscribe: 'Wil je deze e-mails niet meer ontvangen, open dan {{url}}',
    signature: 'Rootline',
  },
};
