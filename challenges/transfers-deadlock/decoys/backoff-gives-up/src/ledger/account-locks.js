/**
 * Account locks: while a transfer moves money between two accounts, no other
 * transfer may read or change either balance.
 *
 * Since LED-412 (2026-04-14) every account has its own lock in ledger-locks,
 * `account:<accountId>`. Until then a single lock, `ledger:global`, was taken
 * for every transfer on the platform. That was simple and correct, but at the
 * payday peak every transfer queued behind every other one (p99 2.8 s), and
 * adding pods bought nothing. With one lock per account, transfers between
 * different accounts run side by side.
 *
 * Anything that reads or writes a balance holds that account's lock while it
 * does (the balance API, statements, the nightly reconciliation), so a
 * transfer's half-done state is never seen as long as it holds both locks.
 */

import { quietLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';

/**
 * The lock key of an account.
 * @param {string} accountId
 * @returns {string}
 */
export function accountLockKey(accountId) {
  return `account:${accountId}`;
}

/** Attempts at taking both locks before a transfer gives up. */
export const MAX_LOCK_ATTEMPTS = 3;

/** Pause after the n-th failed attempt: n x LOCK_BACKOFF_MS. */
const LOCK_BACKOFF_MS = 100;

/** Both locks could not be taken in MAX_LOCK_ATTEMPTS attempts. The app may retry. */
export class AccountsBusyError extends Error {
  name = 'AccountsBusyError';
}

/**
 * @typedef {object} HeldLocks
 * @property {string[]} keys the lock keys held, in the order they were taken
 * @property {() => Promise<void>} release gives every one of them back
 */

/**
 * @param {object} options
 * @param {import('../persistence/lock-service.js').LockService} options.locks ledger-locks, as this request's session
 * @param {import('../clock.js').Clock} options.clock
 * @param {import('../logger.js').Logger} [options.logger]
 * @param {import('../metrics.js').Metrics} [options.metrics]
 */
export function createAccountLocks({ locks, clock, logger = quietLogger, metrics = createMetrics() }) {
  async function releaseAll(held, transferId) {
    for (const key of [...held].reverse()) {
      await locks.release(key);
      logger.debug({ transfer: transferId, lock: key, msg: 'lock released' });
    }
    held.length = 0;
  }

  return {
    /**
     * Locks both accounts of a transfer. Resolves once this request holds both
     * locks; the caller must release() them when the transfer is done.
     *
     * Never waits while holding a lock (INC-2026-0422): both locks are taken
     * with tryAcquire, and if the second one is busy the first is given back
     * at once, so two transfers can never hold one lock each and wait for the
     * other. After a failed attempt the transfer backs off a little longer
     * each time; after MAX_LOCK_ATTEMPTS it gives up with AccountsBusyError.
     *
     * @param {import('../transfers/transfer.js').Transfer} transfer
     * @returns {Promise<HeldLocks>}
     */
    async lockBoth(transfer) {
      const [first, second] = [accountLockKey(transfer.from), accountLockKey(transfer.to)];
      const asked = clock.now();
      for (let attempt = 1; attempt <= MAX_LOCK_ATTEMPTS; attempt++) {
        if (await locks.tryAcquire(first)) {
          if (await locks.tryAcquire(second)) {
            const waited = clock.now() - asked;
            metrics.increment('lock acquisitions', 2);
            metrics.observe('lock wait', waited);
            logger.debug({ transfer: transfer.id, msg: 'locks acquired', attempt, waited_ms: waited });
            const held = [first, second];
            return { keys: [...held], release: () => releaseAll(held, transfer.id) };
          }
          await locks.release(first);
        }
        await clock.sleep(attempt * LOCK_BACKOFF_MS);
      }
      logger.warn({ transfer: transfer.id, msg: 'accounts busy, giving up', attempts: MAX_LOCK_ATTEMPTS });
      throw new AccountsBusyError(`${transfer.id}: ${first} and ${second} stayed busy for ${MAX_LOCK_ATTEMPTS} attempts; try again`);
    },
  };
}
