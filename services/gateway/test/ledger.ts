import type { LedgerTransaction } from '@rootline/contracts';
import type { ApiResponse } from '@rootline/testing';

/** Something that calls the gateway and answers the envelope: a `TestPlatform`, or a test's own `inject()` wrapper. */
export interface GatewayReader {
  http(method: 'GET', url: string): Promise<Pick<ApiResponse, 'status' | 'body'>>;
}

/**
 * A ledger transaction as the chain serves it to anyone (`/api/chain`): its type and the canonical payload, the
 * exact bytes that were hashed. Found through its inclusion proof, which names the block that holds it.
 */
export async function ledgerTransaction(gateway: GatewayReader, txId: string): Promise<LedgerTransaction> {
  const proof = await gateway.http('GET', `/api/chain/transactions/${txId}/proof`);
  if (proof.status !== 200) throw new Error(`transaction ${txId} is not on the ledger: ${JSON.stringify(proof.body)}`);
  const block = await gateway.http('GET', `/api/chain/blocks/${proof.body.data.blockHash}`);
  if (block.status !== 200) throw new Error(`block of ${txId}: ${block.status} ${JSON.stringify(block.body)}`);
  const tx = (block.body.data.transactions as LedgerTransaction[]).find((t) => t.id === txId);
  if (!tx) throw new Error(`transaction ${txId} is not in block ${proof.body.data.blockHash}`);
  return tx;
}

/** Transactions on the ledger, in blocks or waiting for one, as its public statistics count them. */
export async function ledgerTransactions(gateway: GatewayReader): Promise<number> {
  const stats = (await gateway.http('GET', '/api/chain/stats')).body.data;
  return stats.transactions + stats.mempool;
}
