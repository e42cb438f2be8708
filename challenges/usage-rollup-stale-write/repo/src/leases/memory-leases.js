/**
 * The lease service's interface, and an in-memory implementation of it for
 * tests and local runs. In production the service is the coordination
 * cluster's lease API (LEASE_URL); it keeps time itself, so a lease runs out
 * on its clock whatever its holder is doing.
 *
 * @typedef {object} LeaseService
 * @property {(key: string, owner: string, ttlMs: number) => Promise<number | null>} acquire
 *   grants `owner` the lease on `key` for `ttlMs` (renewing it when `owner`
 *   holds it already) and answers with the grant's token, a number higher
 *   than every token granted before for any key; null while another owner's
 *   lease on `key` is live
 * @property {(key: string, owner: string) => Promise<boolean>} release
 *   gives back `owner`'s live lease on `key`; false when it is not (or no
 *   longer) `owner`'s
 */

/**
 * @param {{ clock: { now(): number } }} options
 * @returns {LeaseService}
 */
export function createMemoryLeases({ clock }) {
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
