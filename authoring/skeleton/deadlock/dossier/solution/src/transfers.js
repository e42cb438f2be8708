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
      // Every transfer takes its two locks in the same global order (by account
      // id), so no two transfers can each hold the lock the other waits for.
      const [first, second] = [from, to].sort();
      await locks.acquire(accountLock(first));
      await locks.acquire(accountLock(second));
      try {
        const debited = Number(await store.get(`balance:${from}`)) - amountCents;
        const credited = Number(await store.get(`balance:${to}`)) + amountCents;
        await store.set(`balance:${from}`, String(debited));
        await store.set(`balance:${to}`, String(credited));
        await journal.append(transfer);
      } finally {
        await locks.release(accountLock(second));
        await locks.release(accountLock(first));
      }
    },
  };
}
