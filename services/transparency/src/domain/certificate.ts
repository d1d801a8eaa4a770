import { type KeyObject, sign, verify } from 'node:crypto';
import type { Certificate, SignedCertificate } from '@rootline/contracts/transparency-certificates';
import canonicalize from 'canonicalize';

/** The bytes a certificate signature covers: the RFC 8785 canonical JSON of the certificate, UTF-8. */
export function certificateBytes(certificate: Certificate): Buffer {
  const text = canonicalize(certificate);
  if (text === undefined) throw new Error('certificate cannot be canonicalised');
  return Buffer.from(text, 'utf8');
}

/** Signs a certificate with the platform's Ed25519 key. */
export function signCertificate(certificate: Certificate, privateKey: KeyObject): SignedCertificate {
  return {
    certificate,
    signature: {
      algorithm: 'Ed25519',
      keyId: certificate.keyId,
      value: sign(null, certificateBytes(certificate), privateKey).toString('base64'),
    },
  };
}

/** Whether a signed certificate verifies under the public key. */
export function verifyCertificate(signed: SignedCertificate, publicKey: KeyObject): boolean {
  return verify(null, certificateBytes(signed.certificate), publicKey, Buffer.from(signed.signature.value, 'base64'));
}
