/**
 * Shard claims: while a worker works a shard, the other workers leave it alone.
 *
 * A claim is the key `claim:<campaignId>:<shardId>` in the shared store. Its
 * value is a token unique to one claim, written with setIfAbsent so that of
 * two workers claiming at once exactly one wins. It carries a lease
 * (claimLeaseMs): a worker that dies mid-batch must not keep its shard
 * forever, so a claim nobody releases lapses on its own and the shard can be
 * claimed again.
 *
 * Release is a compareAndDelete of the token, so a worker never deletes a
 * claim that is not its own.
 *
 * The lease has to outlast the batch (OUT-419): a claim that lapses while
 * its worker is still sending hands the shard to a second worker. Callers
 * pass a lease sized for the shard; leaseMs is the floor.
 */

import { nullLogger } from '../logger.js';

/**
 * The store key of a shard's claim.
 * @param {string} campaignId
 * @param {string} shardId
 * @returns {string}
 */
export function claimKeyFor(campaignId, shardId) {
  return `claim:${campaignId}:${shardId}`;
}

/**
 * @typedef {object} ClaimLock
 * @property {(campaignId: string, shardId: string, options?: { leaseMs?: number }) => Promise<string | null>} claim
 *   Claims the shard for this worker, for options.leaseMs (at least the
 *   configured lease): resolves to the claim's token, or to null if another
 *   worker holds the shard.
 * @property {(campaignId: string, shardId: string, token: string) => Promise<boolean>} release
 *   Gives the shard back; true if the claim was still this token's.
 */

/**
 * Creates the claim helper of one worker.
 *
 * @param {object} options
 * @param {import('../store/remote-store.js').KeyValueStore} options.store
 * @param {string} options.owner the worker's name, e.g. "outreach-0"
 * @param {number} options.leaseMs how long a claim lives if it is never released
 * @param {import('../clock.js').Clock} options.clock
 * @param {import('../logger.js').Logger} [options.logger]
 * @returns {ClaimLock}
 */
export function createClaimLock({ store, owner, leaseMs, clock, logger = nullLogger }) {
  if (!owner) throw new TypeError('createClaimLock: owner is required');
  if (!(Number.isInteger(leaseMs) && leaseMs > 0)) throw new RangeError(`createClaimLock: leaseMs must be a positive integer, got ${leaseMs}`);
  let claims = 0;

  /** A value no other claim writes: worker, shard, time and a per-process counter. */
  const newToken = (shardId) => {
    claims += 1;
    return `${owner}:${shardId}:${clock.now().toString(36)}:${claims}`;
  };

  return {
    async claim(campaignId, shardId, options = {}) {
      const token = newToken(shardId);
      const ttlMs = Math.max(leaseMs, Math.ceil(options.leaseMs ?? 0));
      const taken = await store.setIfAbsent(claimKeyFor(campaignId, shardId), token, { ttlMs });
      return taken ? token : null;
    },

    async release(campaignId, shardId, token) {
      const released = await store.compareAndDelete(claimKeyFor(campaignId, shardId), token);
      if (!released) {
        logger.warn({ shard: shardId, msg: 'claim release refused: not held by this worker', token });
      }
      return released;
    },
  };
}
