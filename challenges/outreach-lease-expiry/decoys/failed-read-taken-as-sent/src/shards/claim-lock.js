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
 * A lease only says "mine for the next claimLeaseMs". A batch can outlast
 * it and a worker can stall (GC pause, partition) for longer than any lease,
 * so the claim is kept alive while the batch runs (renew, see
 * lease-keeper.js) and the worker asks the store whether it still holds the
 * claim before every send (holds). Both compare against the claim's token:
 *   - renew() is a compareAndExpire: it extends this worker's own claim and
 *     never revives or extends a claim another worker took after ours lapsed;
 *   - release() is a compareAndDelete: it never deletes another worker's claim.
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
 * @property {(campaignId: string, shardId: string) => Promise<string | null>} claim
 *   Claims the shard for this worker: resolves to the claim's token, or to
 *   null if another worker holds the shard.
 * @property {(campaignId: string, shardId: string, token: string) => Promise<boolean>} renew
 *   Extends the claim's lease to a full claimLeaseMs from now, only if the
 *   claim is still this token's; false if it lapsed or another worker holds it.
 * @property {(campaignId: string, shardId: string, token: string) => Promise<boolean>} holds
 *   Whether the claim is, right now in the store, still this token's.
 * @property {(campaignId: string, shardId: string, token: string) => Promise<boolean>} release
 *   Gives the shard back; true if the claim was still this token's.
 * @property {number} leaseMs the lease every claim and renewal is written with
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
    leaseMs,

    async claim(campaignId, shardId) {
      const token = newToken(shardId);
      const taken = await store.setIfAbsent(claimKeyFor(campaignId, shardId), token, { ttlMs: leaseMs });
      return taken ? token : null;
    },

    async renew(campaignId, shardId, token) {
      return store.compareAndExpire(claimKeyFor(campaignId, shardId), token, leaseMs);
    },

    async holds(campaignId, shardId, token) {
      return (await store.get(claimKeyFor(campaignId, shardId))) === token;
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
