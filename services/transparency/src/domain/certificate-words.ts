import type { Locale } from '@rootline/contracts/auth';
import type { PrivacyLevel, PropagationType } from '@rootline/contracts/plants';

/** The words of a certificate PDF in one language; dates and numbers are written by `Intl` in that language. */
export interface CertificateWords {
  title: string;
  /** What follows a field's label: `: `, in French ` : ` (a no-break space before the colon). */
  colon: string;
  issued: (date: string) => string;
  headings: { plant: string; lineage: string; ledger: string; audit: string; signature: string };
  fields: {
    plantId: string;
    commonName: string;
    scientificName: string;
    registered: string;
    generation: string;
    parent: string;
    location: string;
    privacy: string;
    ancestors: string;
    root: string;
    offspring: string;
    block: string;
    transaction: string;
    entry: string;
    algorithm: string;
  };
  hidden: string;
  unknownPropagation: string;
  propagation: Record<PropagationType, string>;
  privacy: Record<PrivacyLevel, string>;
  leaf: (index: string, size: string) => string;
  entryOf: (index: string, size: string) => string;
  notRecorded: string;
  algorithm: (name: string) => string;
  verify: (url: string, json: string, key: string) => string;
  attachment: string;
}

/** The certificate's words in each language of the app (docs/languages.md). Hashes and ids stay as they are. */
export const CERTIFICATE_WORDS: Record<Locale, CertificateWords> = {
  en: {
    colon: ': ',
    title: 'Certificate of authenticity',
    issued: (date) => `Issued ${date} by Rootline`,
    headings: { plant: 'Plant', lineage: 'Lineage', ledger: 'Ledger', audit: 'Audit log', signature: 'Signature' },
    fields: {
      plantId: 'Plant id',
      commonName: 'Common name',
      scientificName: 'Scientific name',
      registered: 'Registered',
      generation: 'Generation',
      parent: 'Parent',
      location: 'Location',
      privacy: 'Privacy level',
      ancestors: 'Ancestors',
      root: 'Root plant',
      offspring: 'Direct offspring',
      block: 'Block',
      transaction: 'Transaction',
      entry: 'Entry',
      algorithm: 'Algorithm',
    },
    hidden: 'hidden',
    unknownPropagation: 'unknown',
    propagation: {
      clone: 'clone',
      seed: 'seed',
      cutting: 'cutting',
      graft: 'graft',
      division: 'division',
      layering: 'layering',
      'tissue-culture': 'tissue culture',
    },
    privacy: { exact: 'exact', fuzzy: 'fuzzy', city: 'city', country: 'country', hidden: 'hidden' },
    leaf: (index, size) => `leaf ${index} of ${size}`,
    entryOf: (index, size) => `#${index} of ${size}`,
    notRecorded: 'Not yet recorded when this certificate was issued.',
    algorithm: (name) => `${name} over the RFC 8785 canonical JSON of the certificate`,
    verify: (url, json, key) =>
      `Verify: scan the code or open ${url}. The signed JSON is at ${json}; the public key at ${key}.`,
    attachment: 'The signed certificate, to verify',
  },
  nl: {
    colon: ': ',
    title: 'Certificaat van echtheid',
    issued: (date) => `Uitgegeven op ${date} door Rootline`,
    headings: {
      plant: 'Plant',
      lineage: 'Afstamming',
      ledger: 'Grootboek',
      audit: 'Auditlog',
      signature: 'Handtekening',
    },
    fields: {
      plantId: 'Plant-id',
      commonName: 'Gewone naam',
      scientificName: 'Wetenschappelijke naam',
      registered: 'Geregistreerd',
      generation: 'Generatie',
      parent: 'Ouder',
      location: 'Locatie',
      privacy: 'Privacyniveau',
      ancestors: 'Voorouders',
      root: 'Stamplant',
      offspring: 'Directe nakomelingen',
      block: 'Blok',
      transaction: 'Transactie',
      entry: 'Vermelding',
      algorithm: 'Algoritme',
    },
    hidden: 'verborgen',
    unknownPropagation: 'onbekend',
    propagation: {
      clone: 'kloon',
      seed: 'zaad',
      cutting: 'stek',
      graft: 'enting',
      division: 'scheuren',
      layering: 'afleggen',
      'tissue-culture': 'weefselkweek',
    },
    privacy: { exact: 'exact', fuzzy: 'vaag', city: 'stad', country: 'land', hidden: 'verborgen' },
    leaf: (index, size) => `blad ${index} van ${size}`,
    entryOf: (index, size) => `#${index} van ${size}`,
    notRecorded: 'Nog niet vastgelegd toen dit certificaat werd uitgegeven.',
    algorithm: (name) => `${name} over de canonieke JSON (RFC 8785) van het certificaat`,
    verify: (url, json, key) =>
      `Controleren: scan de code of open ${url}. De ondertekende JSON staat op ${json}; de publieke sleutel op ${key}.`,
    attachment: 'Het ondertekende certificaat, om te controleren',
  },
  de: {
    colon: ': ',
    title: 'Echtheitszertifikat',
    issued: (date) => `Ausgestellt am ${date} von Rootline`,
    headings: {
      plant: 'Pflanze',
      lineage: 'Abstammung',
      ledger: 'Ledger',
      audit: 'Prüfprotokoll',
      signature: 'Signatur',
    },
    fields: {
      plantId: 'Pflanzen-ID',
      commonName: 'Name',
      scientificName: 'Wissenschaftlicher Name',
      registered: 'Registriert',
      generation: 'Generation',
      parent: 'Elternpflanze',
      location: 'Standort',
      privacy: 'Datenschutzstufe',
      ancestors: 'Vorfahren',
      root: 'Stammpflanze',
      offspring: 'Direkte Nachkommen',
      block: 'Block',
      transaction: 'Transaktion',
      entry: 'Eintrag',
      algorithm: 'Algorithmus',
    },
    hidden: 'verborgen',
    unknownPropagation: 'unbekannt',
    propagation: {
      clone: 'Klon',
      seed: 'Samen',
      cutting: 'Steckling',
      graft: 'Veredelung',
      division: 'Teilung',
      layering: 'Absenker',
      'tissue-culture': 'Gewebekultur',
    },
    privacy: { exact: 'genau', fuzzy: 'unscharf', city: 'Stadt', country: 'Land', hidden: 'verborgen' },
    leaf: (index, size) => `Blatt ${index} von ${size}`,
    entryOf: (index, size) => `Nr. ${index} von ${size}`,
    notRecorded: 'Bei Ausstellung dieses Zertifikats noch nicht erfasst.',
    algorithm: (name) => `${name} über das kanonische JSON (RFC 8785) des Zertifikats`,
    verify: (url, json, key) =>
      `Prüfen: Code scannen oder ${url} öffnen. Das signierte JSON steht unter ${json}, der öffentliche Schlüssel ` +
      `unter ${key}.`,
    attachment: 'Das signierte Zertifikat, zum Prüfen',
  },
  fr: {
    colon: '\u00a0: ',
    title: 'Certificat d’authenticité',
    issued: (date) => `Délivré le ${date} par Rootline`,
    headings: {
      plant: 'Plante',
      lineage: 'Lignée',
      ledger: 'Registre',
      audit: 'Journal d’audit',
      signature: 'Signature',
    },
    fields: {
      plantId: 'Identifiant de la plante',
      commonName: 'Nom commun',
      scientificName: 'Nom scientifique',
      registered: 'Enregistrée',
      generation: 'Génération',
      parent: 'Parent',
      location: 'Emplacement',
      privacy: 'Niveau de confidentialité',
      ancestors: 'Ancêtres',
      root: 'Plante d’origine',
      offspring: 'Descendants directs',
      block: 'Bloc',
      transaction: 'Transaction',
      entry: 'Entrée',
      algorithm: 'Algorithme',
    },
    hidden: 'masqué',
    unknownPropagation: 'inconnu',
    propagation: {
      clone: 'clone',
      seed: 'semis',
      cutting: 'bouture',
      graft: 'greffe',
      division: 'division',
      layering: 'marcottage',
      'tissue-culture': 'culture in vitro',
    },
    privacy: { exact: 'exact', fuzzy: 'flou', city: 'ville', country: 'pays', hidden: 'masqué' },
    leaf: (index, size) => `feuille ${index} sur ${size}`,
    entryOf: (index, size) => `n° ${index} sur ${size}`,
    notRecorded: 'Pas encore enregistré à la délivrance de ce certificat.',
    algorithm: (name) => `${name} sur le JSON canonique (RFC 8785) du certificat`,
    verify: (url, json, key) =>
      `Vérifier : scannez le code ou ouvrez ${url}. Le JSON signé est à ${json} ; la clé publique à ${key}.`,
    attachment: 'Le certificat signé, à vérifier',
  },
  es: {
    colon: ': ',
    title: 'Certificado de autenticidad',
    issued: (date) => `Emitido el ${date} por Rootline`,
    headings: {
      plant: 'Planta',
      lineage: 'Linaje',
      ledger: 'Registro',
      audit: 'Registro de auditoría',
      signature: 'Firma',
    },
    fields: {
      plantId: 'Id. de la planta',
      commonName: 'Nombre común',
      scientificName: 'Nombre científico',
      registered: 'Registrada',
      generation: 'Generación',
      parent: 'Progenitora',
      location: 'Ubicación',
      privacy: 'Nivel de privacidad',
      ancestors: 'Antepasados',
      root: 'Planta raíz',
      offspring: 'Descendencia directa',
      block: 'Bloque',
      transaction: 'Transacción',
      entry: 'Entrada',
      algorithm: 'Algoritmo',
    },
    hidden: 'oculta',
    unknownPropagation: 'desconocido',
    propagation: {
      clone: 'clon',
      seed: 'semilla',
      cutting: 'esqueje',
      graft: 'injerto',
      division: 'división',
      layering: 'acodo',
      'tissue-culture': 'cultivo de tejidos',
    },
    privacy: { exact: 'exacta', fuzzy: 'difusa', city: 'ciudad', country: 'país', hidden: 'oculta' },
    leaf: (index, size) => `hoja ${index} de ${size}`,
    entryOf: (index, size) => `n.º ${index} de ${size}`,
    notRecorded: 'Aún no registrado cuando se emitió este certificado.',
    algorithm: (name) => `${name} sobre el JSON canónico (RFC 8785) del certificado`,
    verify: (url, json, key) =>
      `Verificar: escanee el código o abra ${url}. El JSON firmado está en ${json}; la clave pública en ${key}.`,
    attachment: 'El certificado firmado, para verificar',
  },
};

/** A timestamp as the language writes a date and time, in UTC (the certificate's own time zone). */
export function certificateDate(iso: string, language: Locale): string {
  const written = new Intl.DateTimeFormat(language, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(new Date(iso));
  return `${written} UTC`;
}

/** A whole number as the language writes it (`12,345`, `12.345`, `12 345`). */
export function certificateNumber(n: number, language: Locale): string {
  return new Intl.NumberFormat(language).format(n);
}
