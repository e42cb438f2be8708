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
 *
 * Lock order: a transfer holds one lock while it waits for the other, so two
 * transfers that wait for each other's lock would wait forever (ledger-locks
 * has no time limit and no deadlock detection). Every transfer therefore takes
 * its locks in the same global order, by account id (INC-2026-0422).
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
 * The global lock order: account ids compared code unit by code unit, the
 * same on every pod. Distinct ids never compare equal.
 * @param {string} a
 * @param {string} b
 */
export function byAccountId(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * @typedef {object} HeldLocks
 * @property {string[]} keys the lock keys held, in the order they were taken
 * @property {() => Promise<void>} release gives every one of them back
 */

/**
 * This pod's queue for each account: whether a request of the pod is using
 * the account, and the request waiting for it. Requests of one pod wait for
 * each other here rather than in ledger-locks, so a pod's waiting requests do
 * not each tie up one of its pooled ledger-locks connections.
 * @type {Map<string, { busy: boolean, waiter: (() => void) | null }>}
 */
const podQueues = new Map();

/** Waits until no other request of this pod uses the account's lock key. */
async function enterPodQueue(key) {
  let queue = podQueues.get(key);
  if (!queue) {
    queue = { busy: false, waiter: null };
    podQueues.set(key, queue);
  }
  if (queue.busy) await new Promise((resolve) => { queue.waiter = resolve; });
  queue.busy = true;
}

/** Lets the request waiting for the account's lock key, if any, go on. */
function leavePodQueue(key) {
  const queue = podQueues.get(key);
  queue.busy = false;
  const waiter = queue.waiter;
  queue.waiter = null;
  waiter?.();
}

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
      leavePodQueue(key);
      logger.debug({ transfer: transferId, lock: key, msg: 'lock released' });
    }
    held.length = 0;
  }

  return {
    /**
     * Locks both accounts of a transfer, lower account id first. Resolves once
     * this request holds both locks; the caller must release() them when the
     * transfer is done.
     *
     * @param {import('../transfers/transfer.js').Transfer} transfer
     * @returns {Promise<HeldLocks>}
     */
    async lockBoth(transfer) {
      // Every transfer takes its two locks in one global order: by account
      // id, whichever way the money flows. Two transfers that share accounts
      // then ask for the shared ones in the same order, so one of them gets
      // both and the other waits for it; neither can hold a lock the other
      // needs while waiting for one the other holds. Waiting for the first
      // lock while holding nothing can never close a cycle.
      //
      // The ids are unique, so the order never ties; sorting by anything that
      // can tie (the customer number, a balance) would fall back to the
      // direction of the transfer for exactly the pairs that tie.
      const keys = [transfer.from, transfer.to].sort(byAccountId).map(accountLockKey);
      const held = [];
      try {
        for (const key of keys) {
          const asked = clock.now();
          await enterPodQueue(key);
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
