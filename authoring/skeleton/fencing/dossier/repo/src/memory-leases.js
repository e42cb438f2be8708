/**
 * An in-memory lease service with the interface of the production one, for
 * tests and local runs.
 *
 * @typedef {object} LeaseService
 * @property {(key: string, owner: string, ttlMs: number) => Promise<number | null>} acquire
 *   grants `owner` the lease on `key` for `ttlMs` (renewing it if `owner` holds it) and answers
 *   with a fencing token higher than every token granted before; null while another owner's lease is live
 * @property {(key: string, owner: string) => Promise<boolean>} release gives back `owner`'s live lease
 */

/**
 * @param {{ clock: { now(): number } }} options
 * @returns {LeaseService}
 */
export function createLeaseService({ clock }) {
  /** @type {Map<string, { owner: string, until: number }>} */
  const leases = new Map();
  let lastToken = 0;
  return {
    async acquire(key, owner, ttlMs) {
      const lease = leases.get(key);
      if (lease && lease.until > clock.now() && lease.owner !== owner) return null;
      leases.set(key, { owner, until: clock.now() + ttlMs });
      lastToken += 1;
      return lastToken;
    },
    async release(key, owner) {
      const lease = leases.get(key);
      if (!lease || lease.owner !== owner || lease.until <= clock.now()) return false;
      leases.delete(key);
      return true;
    },
  };
}
