import type { components, paths } from '@rootline/sdk';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { browserKeys, makeKeyPair, saveKey, signText } from '../lib/signing-keys';

export type SigningKey = components['schemas']['SigningKey'];
export type SubjectType = paths['/api/transparency/signatures/statement']['get']['parameters']['query']['subjectType'];

const KEYS = ['transparency', 'signing-keys'] as const;

/** The caller's registered keys, each marked when its private key is in this browser. */
export function useSigningKeys() {
  return useQuery({
    queryKey: KEYS,
    queryFn: async () => {
      const [keys, local] = await Promise.all([
        unwrap(api.GET('/api/transparency/signatures/keys')),
        browserKeys().catch(() => []),
      ]);
      const here = new Set(local.map((k) => k.keyId));
      return keys.map((k) => ({ ...k, inBrowser: here.has(k.id) }));
    },
  });
}

/**
 * Makes a key pair here and registers its public key, proving the private key with the challenge the API issues
 * (the signature over `messagePrefix` + the raw key); the private key is kept in this browser.
 */
export function useRegisterKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (label: string) => {
      const pair = await makeKeyPair();
      const { challenge, messagePrefix } = await unwrap(api.POST('/api/transparency/signatures/keys/challenge'));
      const proof = await signText(pair.privateKey, `${messagePrefix}${pair.publicKey}`);
      const key = await unwrap(
        api.POST('/api/transparency/signatures/keys', {
          body: { publicKey: pair.publicKey, challenge, proof, ...(label ? { label } : {}) },
        }),
      );
      await saveKey({ keyId: key.id, publicKey: key.publicKey, privateKey: pair.privateKey });
      return key;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS }),
  });
}

export function useRevokeKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      unwrap(api.DELETE('/api/transparency/signatures/keys/{keyId}', { params: { path: { keyId } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: KEYS }),
  });
}

/** The statement of a subject: what a signature covers (its RFC 8785 text and SHA-256). */
export function useStatement() {
  return useMutation({
    mutationFn: (query: { subjectType: SubjectType; subjectId: string }) =>
      unwrap(api.GET('/api/transparency/signatures/statement', { params: { query } })),
  });
}

/** The signatures of a subject, each checked again by the server. */
export function useSignatures(subject: { subjectType: SubjectType; subjectId: string } | null) {
  return useQuery({
    queryKey: ['transparency', 'signatures', subject],
    enabled: subject !== null,
    queryFn: () => unwrap(api.GET('/api/transparency/signatures', { params: { query: subject! } })),
  });
}

/** Signs the statement's canonical text in this browser with a key kept here, and sends the signature. */
export function useSign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: { subjectType: SubjectType; subjectId: string; keyId: string; canonical: string }) => {
      const key = (await browserKeys()).find((k) => k.keyId === input.keyId);
      if (!key) throw new Error('The private key of this key is not in this browser');
      const signature = await signText(key.privateKey, input.canonical);
      return unwrap(
        api.POST('/api/transparency/signatures', {
          body: { subjectType: input.subjectType, subjectId: input.subjectId, keyId: input.keyId, signature },
        }),
      );
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['transparency', 'signatures'] }),
  });
}

/** Asks the API to verify a statement, signature and public key (nothing is stored). */
export function useVerifySignature() {
  return useMutation({
    mutationFn: (body: { statement: unknown; signature: string; publicKey: string }) =>
      unwrap(api.POST('/api/transparency/signatures/verify', { body })),
  });
}
