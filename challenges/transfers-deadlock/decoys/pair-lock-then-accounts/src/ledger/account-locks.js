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
     * @param {import('../transfers/transfer.js').Transfer} transfer
     * @returns {Promise<HeldLocks>}
     */
    async lockBoth(transfer) {
      // The debited account first, then the credited one: the debit side is
      // where the funds check happens, so it is the lock that matters most.
      // Two transfers between the same two accounts (a payment and its "Send
      // it back") first serialize on a lock for the pair, in canonical order,
      // so they can no longer take the account locks in opposite orders.
      const pair = [transfer.from, transfer.to].sort().join('|');
      const keys = [`pair:${pair}`, accountLockKey(transfer.from), accountLockKey(transfer.to)];

      const held = [];
      try {
        for (const key of keys) {
          const asked = clock.now();
          await locks.acquire(key);
          held.push(key);
          const waited = clock.now() - asked;
          metrics.increment('lock acquisitions');
          metrics.observe('lock wait', waited);
          logger.debug({ transfer: transfer.id, lock: key, msg: 'lock acquired', waited_ms: waited });
        }
      } catch (error) {
        await releaseAll(held, transfer.id);
        throw error;
      }
      return { keys: [...held], release: () => releaseAll(held, transfer.id) };
    },
  };
}
