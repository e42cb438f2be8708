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
      // One store operation: no other award can land between reading and writing.
      return store.incrBy(balanceKey(accountId), points);
    },
  };
}
