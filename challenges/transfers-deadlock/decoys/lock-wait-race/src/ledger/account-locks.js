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

/** Give up on a lock before the gateway does (30 s). */
const LOCK_WAIT_LIMIT_MS = 25_000;

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
      // One global order, by account id, whichever way the money flows.
      const keys = [transfer.from, transfer.to].sort().map(accountLockKey);
      const held = [];
      try {
        for (const key of keys) {
          const asked = clock.now();
          // Never wait forever: ledger-locks has no time limit of its own.
          const got = await Promise.race([
            locks.acquire(key).then(() => true),
            clock.sleep(LOCK_WAIT_LIMIT_MS).then(() => false),
          ]);
          if (!got) throw new Error(`${transfer.id}: waited ${LOCK_WAIT_LIMIT_MS} ms for ${key}; try again`);
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
