/**
 * Keeps a shard claim alive while its batch runs: a heartbeat that renews the
 * claim's lease at a third of the lease, so the claim never lapses while its
 * worker is alive and making progress, even if one renewal takes up to a
 * second to reach the store.
 *
 * Every renewal is conditional on the claim's token (ClaimLock#renew, a
 * compareAndExpire). If it fails, the claim lapsed (the worker was frozen
 * past its lease) or another worker holds the shard now: the keeper stops
 * renewing and reports the claim as lost. It never touches a claim that is
 * not its own.
 *
 * The keeper's `lost` flag is only as fresh as its last renewal: a worker
 * waking from a long pause still has `lost === false` until its next
 * heartbeat. It is a shortcut, not a guard; ask the store (ClaimLock#holds)
 * before each send.
 */

/**
 * @typedef {object} LeaseKeeper
 * @property {boolean} lost true once a renewal found the claim no longer ours
 * @property {() => void} stop stops renewing (call it before releasing the claim)
 */

/**
 * Starts renewing the claim `token` on a shard.
 *
 * @param {object} options
 * @param {import('./claim-lock.js').ClaimLock} options.claims
 * @param {string} options.campaignId
 * @param {string} options.shardId
 * @param {string} options.token
 * @param {import('../clock.js').Clock} options.clock
 * @param {import('../logger.js').Logger} options.logger
 * @returns {LeaseKeeper}
 */
export function keepLease({ claims, campaignId, shardId, token, clock, logger }) {
  const everyMs = Math.max(1, Math.floor(claims.leaseMs / 3));
  const keeper = { lost: false, stop() { stopped = true; } };
  let stopped = false;

  (async () => {
    while (!stopped) {
      await clock.sleep(everyMs);
      if (stopped) return;
      const renewed = await claims.renew(campaignId, shardId, token);
      if (!renewed) {
        keeper.lost = true;
        if (!stopped) logger.warn({ shard: shardId, msg: 'claim lost: renewal refused (lapsed or taken over)', token });
        return;
      }
    }
  })().catch((error) => {
    keeper.lost = true;
    logger.error({ shard: shardId, msg: 'claim heartbeat failed', error: error.message });
  });

  return keeper;
}
