/**
 * Loyalty point balances in the shared store. The key `points:<accountId>`
 * holds an account's balance as a base-10 integer string; a missing key is a
 * balance of 0.
 */

/**
 * The store key of an account's balance.
 * @param {string} accountId
 * @returns {string}
 */
export function balanceKey(accountId) {
  return `points:${accountId}`;
}

/**
 * Creates the balance helper of one worker.
 * @param {{ store: import('./memory-store.js').KeyValueStore }} options
 */
export function createBalances({ store }) {
  return {
    /**
     * Adds points to an account.
     * @param {string} accountId
     * @param {number} points
     * @returns {Promise<number>} the new balance
     */
    async add(accountId, points) {
      const key = balanceKey(accountId);
      const before = await store.get(key);
      const next = Number(before ?? '0') + points;
      // Write only if nobody changed the balance meanwhile; if someone did, try again.
      let written = await store.compareAndSet(key, before, String(next));
      while (!written) written = await store.compareAndSet(key, before, String(next));
      return next;
    },
  };
}
