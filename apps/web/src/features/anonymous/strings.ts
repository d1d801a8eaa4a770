/** Every text of the anonymous registration page, in one place. */
export const ANONYMOUS = {
  title: 'Register a plant anonymously',
  lead:
    'No account, no email, no name. Your browser makes a key pair: only its public key is sent. The private key ' +
    'is the only proof that the plant is yours; it never leaves this page unless you save it.',
  commonName: 'Common name',
  scientificName: 'Scientific name (optional)',
  pseudonym: 'Pseudonym (optional)',
  pseudonymHint: 'Shown as the owner instead of "Anonymous grower". Do not use your real name.',
  submit: 'Make my key and register',
  busy: 'Making the key and mining the block…',
  unsupported: 'This browser cannot make Ed25519 keys. Use a current browser to register anonymously.',
  missingLocation: 'Pick the location on the map or type its latitude and longitude.',
  result: {
    title: 'Your plant is on the ledger',
    plant: 'Plant',
    anonymousId: 'Anonymous id',
    wallet: 'Wallet address',
    pseudonym: 'Pseudonym',
    noPseudonym: 'none (shown as Anonymous grower)',
    block: 'Block',
    publicKey: 'Public key',
    open: 'Open the plant’s page',
  },
  key: {
    title: 'Save your private key now',
    warning:
      'Rootline does not have it and cannot recover it. Download it or scan the QR code with a device you trust. ' +
      'It was made in this browser and has not been sent anywhere.',
    download: 'Download the private key',
    qr: 'QR code of your private key',
    show: 'Show the private key',
    hide: 'Hide the private key',
    label: 'Private key',
  },
} as const;
