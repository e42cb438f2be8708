/**
 * The transfer service: moves money from one account to another, exactly once
 * per transfer id.
 *
 * transfer(request) works on one account at a time, so it never holds one
 * account lock while waiting for another (INC-2026-0422: two transfers that
 * each held one lock and waited for the other's hung forever):
 *   1. lock the sender's account; if the transfer id was posted before,
 *      answer 'duplicate'; check the funds; write the debit; unlock;
 *   2. lock the receiver's account; write the credit; post the journal entry
 *      (src/ledger/journal.js); record the transfer as posted; unlock.
 * Each balance is still only read and written under its own lock.
 *
 * Outcomes:
 *   'posted'     the money moved; the API answers 201
 *   'duplicate'  this id was posted before; nothing moved this time; 200
 *   'declined'   the sender's balance is too low; nothing moved; 422
 * Errors (an invalid request, an unknown account, a store failure) are thrown.
 */

import { quietLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { accountLockKey } from '../ledger/account-locks.js';
import { createLedgerStore } from '../ledger/ledger-store.js';
import { journalEntryFor } from '../ledger/journal.js';
import { formatAmount, validateTransfer } from './transfer.js';

/**
 * @typedef {'posted' | 'duplicate' | 'declined'} Outcome
 */

/**
 * Creates the transfer service for one request: src/main.js builds one per
 * request, so that each request holds its account locks in its own
 * ledger-locks session.
 *
 * @param {object} options
 * @param {string} options.podId the pod's name, for the logs
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store ledger-kv
 * @param {import('../persistence/lock-service.js').LockService} options.locks ledger-locks, as this request's session
 * @param {import('../ledger/journal.js').Journal} options.journal the general ledger
 * @param {import('../clock.js').Clock} options.clock
 * @param {import('../logger.js').Logger} [options.logger]
 * @param {import('../metrics.js').Metrics} [options.metrics]
 */
export function createTransferService({ podId, store, locks, journal, clock, logger = quietLogger, metrics = createMetrics() }) {
  if (!podId) throw new TypeError('createTransferService: podId is required');
  const log = logger.with({ pod: podId });
  const ledger = createLedgerStore({ store, clock });

  /**
   * Applies one transfer.
   * @param {unknown} request see validateTransfer() in ./transfer.js
   * @returns {Promise<Outcome>}
   */
  async function transfer(request) {
    const t = validateTransfer(request);
    const started = clock.now();
    metrics.increment('transfer requests');
    log.info({ transfer: t.id, msg: 'transfer received', from: t.from, to: t.to, amount: formatAmount(t.amountCents), reason: t.reason });

    // Debit side, under the sender's lock only.
    const fromLock = accountLockKey(t.from);
    await locks.acquire(fromLock);
    try {
      if (await ledger.postedTransfer(t.id)) {
        metrics.increment('transfer duplicates');
        log.info({ transfer: t.id, msg: 'already posted', result: 'duplicate' });
        return 'duplicate';
      }
      const fromBalance = await ledger.balance(t.from);
      if (fromBalance < t.amountCents) {
        metrics.increment('transfers declined');
        log.info({ transfer: t.id, msg: 'insufficient funds', result: 'declined', balance: formatAmount(fromBalance) });
        return 'declined';
      }
      await ledger.setBalance(t.from, fromBalance - t.amountCents);
    } finally {
      await locks.release(fromLock);
    }

    // Credit side, under the receiver's lock only.
    const toLock = accountLockKey(t.to);
    await locks.acquire(toLock);
    try {
      const toBalance = await ledger.balance(t.to);
      await ledger.setBalance(t.to, toBalance + t.amountCents);
      const { entryId = null } = (await journal.post(journalEntryFor(t, clock.now()))) ?? {};
      await ledger.recordPosted(t, entryId);

      metrics.increment('transfers posted');
      log.info({ transfer: t.id, msg: 'posted', result: 'posted', entry: entryId, ms: clock.now() - started });
      return 'posted';
    } finally {
      await locks.release(toLock);
    }
  }

  /**
   * The record of a posted transfer, or null. Used by "Send it back" to find
   * the payment being returned. Reads without locks: a record never changes
   * once written.
   * @param {string} transferId
   */
  async function find(transferId) {
    return ledger.postedTransfer(transferId);
  }

  return { podId, transfer, find };
}
