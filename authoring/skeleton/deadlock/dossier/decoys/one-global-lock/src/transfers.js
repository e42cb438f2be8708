/**
 * Money transfers between wallet accounts. Balances live in the shared store
 * under `balance:<accountId>`, in cents, as base-10 integer strings. A
 * transfer holds the lock of both its accounts (the blocking lock service)
 * while it reads and writes their balances, so no other transfer sees them
 * half-changed.
 */

/**
 * The lock of an account.
 * @param {string} accountId
 * @returns {string}
 */
export function accountLock(accountId) {
  return `account:${accountId}`;
}

/**
 * Creates the transfer helper of one worker.
 *
 * @param {object} options
 * @param {{ get(key: string): Promise<string | null>, set(key: string, value: string): Promise<void> }} options.store
 * @param {import('./memory-locks.js').LockClient} options.locks
 * @param {{ append(entry: object): Promise<object> }} options.journal the audit journal
 */
export function createTransfers({ store, locks, journal }) {
  return {
    /**
     * Moves `amountCents` from one account to another.
     * @param {{ transferId: string, from: string, to: string, amountCents: number }} transfer
     */
    async post(transfer) {
      const { from, to, amountCents } = transfer;
      // One lock for every transfer: nothing can wait in a cycle.
      await locks.acquire('transfers');
      try {
        const debited = Number(await store.get(`balance:${from}`)) - amountCents;
        const credited = Number(await store.get(`balance:${to}`)) + amountCents;
        await store.set(`balance:${from}`, String(debited));
        await store.set(`balance:${to}`, String(credited));
        await journal.append(transfer);
      } finally {
        await locks.release('transfers');
      }
    },
  };
}
