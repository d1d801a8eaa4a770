import type { Catalog } from './en.js';

export const es: Catalog = {
  welcome: {
    title: 'Te damos la bienvenida a Rootline',
    body: 'Tu cuenta está lista. Registra tu primera planta para empezar su linaje en el registro.',
  },
  plantRegistered: {
    title: '{{commonName}} está registrada',
    body: '{{commonName}} consta en el registro como {{plantId}}.',
  },
  demandMatchGrower: {
    title: 'Un hogar cerca de ti quiere {{crop}}',
    body: 'Tu oferta encaja con {{quantityKg}} kg de {{crop}}, a menos de {{band}} km.',
  },
  demandMatchConsumer: {
    title: '{{crop}} cultivado cerca de ti',
    body: 'Un productor puede suministrar {{quantityKg}} kg de {{crop}}, a {{distance}}.',
  },
  offerMade: { title: 'Nueva oferta en tu anuncio', body: 'Una oferta por {{quantity}} a {{price}} cada uno.' },
  offerAccepted: {
    title: 'Oferta aceptada',
    body: 'La oferta por {{quantity}} a {{price}} cada uno ha sido aceptada.',
  },
  verifyEmail: {
    title: 'Confirma tu dirección de correo',
    body: 'Abre este enlace para confirmar tu dirección: {{link}}\nSi no lo has pedido, ignora este correo.',
  },
  resetPassword: {
    title: 'Restablece tu contraseña',
    body:
      'Abre este enlace para elegir una contraseña nueva: {{link}}\n' +
      'Si no lo has pedido, ignora este correo; tu contraseña sigue igual.',
  },
  weeklyDigest: { title: 'Tu semana en Rootline', body: 'En la semana del {{weekStart}}:' },
  transportArriving: {
    plant: 'La planta {{id}}',
    seedLot: 'El lote de semillas {{id}}',
    title: '{{what}} va de camino hacia ti',
    body: '{{what}} se te ha entregado ({{kind}}).',
    bodyDistance: '{{what}} se te ha entregado ({{kind}}, {{distance}}).',
  },
  farmAlert: {
    title: '{{farmName}}: lecturas fuera de rango',
    body_one: '{{count}} lectura del lote {{batchId}} quedó fuera de los objetivos ({{metrics}}).',
    body_many: '{{count}} de lecturas del lote {{batchId}} quedaron fuera de los objetivos ({{metrics}}).',
    body_other: '{{count}} lecturas del lote {{batchId}} quedaron fuera de los objetivos ({{metrics}}).',
  },
  harvestReady: {
    title: '{{crop}} está listo para cosechar',
    body: 'El lote {{batchId}} en {{farmName}} ha llegado a su fecha de cosecha prevista.',
  },
  webhookDisabled: {
    title: 'Se ha desactivado uno de tus webhooks',
    gone: 'su receptor respondió 410 Gone',
    failing: 'todas las entregas han fallado',
    failingSince: 'todas las entregas fallan desde {{since}}',
    body:
      'Tu webhook {{webhookId}} ({{url}}) se ha desactivado porque {{why}}. Ya no se le entrega nada; arregla el ' +
      'receptor, vuelve a activar el webhook (PATCH /api/transparency/webhooks/{{webhookId}} con ' +
      '{"status":"active"}) y reenvía lo que se perdió.',
  },
  passwordChanged: {
    title: 'Tu contraseña ha cambiado',
    body: 'La contraseña de tu cuenta de Rootline se acaba de cambiar. Si no has sido tú, restablécela enseguida.',
  },
  organizationInvitation: {
    title: '{{invitedByName}} te invita a {{organizationName}}',
    body: '{{invitedByName}} te invita a unirte a {{organizationName}} en Rootline con el rol: {{role}}. Abre este enlace para aceptar o rechazar (inicia sesión o crea una cuenta primero): {{action}}\nEl enlace funciona una vez. Si no conoces a esta persona, ignora este correo.',
    roleOwner: 'propietario',
    roleManager: 'gestor',
    roleMember: 'miembro',
    roleViewer: 'observador',
  },
  seedLoan: {
    lentTitle: 'Te prestaron {{name}}',
    lent: '{{from}} te prestó {{quantity}} de {{name}}. Devuelve semillas guardadas de lo que cultives antes del final de {{due}}: hazlo en tu página de préstamos.',
    spring: 'primavera',
    summer: 'verano',
    autumn: 'otoño',
    winter: 'invierno',
    seeds: 'semillas',
    grams: 'gramos',
    packets: 'sobres',
  },
  transfer: {
    proposedTitle: 'Te ofrecen {{name}}',
    proposed: '{{from}} propone transferir {{name}} a {{to}}. Acéptalo o recházalo en tu página de transferencias.',
    acceptedTitle: '{{name}} cambió de manos',
    accepted: '{{to}} aceptó {{name}} de {{from}}. La transferencia consta en el registro.',
    declinedTitle: 'Transferencia de {{name}} rechazada',
    declined: '{{to}} rechazó {{name}} de {{from}}.',
    cancelledTitle: 'Transferencia de {{name}} retirada',
    cancelled: '{{from}} retiró la oferta de {{name}} a {{to}}.',
  },
  organizationChange: {
    roleOwner: 'propietario',
    roleManager: 'gestor',
    roleMember: 'miembro',
    roleViewer: 'observador',
    someMember: 'Un miembro',
    someManager: 'Un propietario o gestor',
    invitationSentTitle: '{{org}}: invitación enviada',
    invitationSent: '{{name}} ha invitado a alguien a {{org}}.',
    invitationSentAs: '{{name}} ha invitado a alguien a {{org}} como {{role}}.',
    memberAddedTitle: '{{org}}: nuevo miembro',
    memberAdded: '{{name}} se ha unido a {{org}}.',
    memberAddedAs: '{{name}} se ha unido a {{org}} como {{role}}.',
    youJoined: 'Te has unido a {{org}}.',
    youJoinedAs: 'Te has unido a {{org}} como {{role}}.',
    roleChangedTitle: '{{org}}: rol cambiado',
    roleChanged: '{{name}} ahora es {{role}} de {{org}}.',
    roleChangedWas: '{{name}} ahora es {{role}} de {{org}} (antes {{previous}}).',
    youRoleChanged: 'Ahora eres {{role}} de {{org}}.',
    youRoleChangedWas: 'Ahora eres {{role}} de {{org}} (antes {{previous}}).',
    memberRemovedTitle: '{{org}}: miembro quitado',
    memberRemoved: 'Se ha quitado a {{name}} de {{org}}.',
    youRemoved: 'Te han quitado de {{org}}.',
    memberLeftTitle: '{{org}}: un miembro se fue',
    memberLeft: '{{name}} ha salido de {{org}}.',
    youLeft: 'Has salido de {{org}}.',
    invitationDeclinedTitle: '{{org}}: invitación rechazada',
    invitationDeclined: '{{name}} ha rechazado la invitación a {{org}}.',
    invitationRevokedTitle: '{{org}}: invitación revocada',
    invitationRevoked: '{{name}} ha revocado una invitación a {{org}}.',
    dissolvedTitle: 'La organización {{org}} se ha disuelto',
    dissolved: '{{name}} ha disuelto {{org}}.',
  },
  email: {
    greeting: 'Hola, {{name}}:',
    unsubscribe: 'Para dejar de recibir estos correos, abre {{url}}',
    signature: 'Rootline',
  },
};
