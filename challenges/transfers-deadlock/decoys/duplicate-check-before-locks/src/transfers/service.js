/**
 * The transfer service: moves money from one account to another, exactly once
 * per transfer id.
 *
 * transfer(request) does, in order:
 *   1. lock both accounts (src/ledger/account-locks.js);
 *   2. if the transfer id was posted before, answer 'duplicate' (the app
 *      retries with the same id after a time-out);
 *   3. check the sender's funds;
 *   4. write both balances;
 *   5. post the journal entry (src/ledger/journal.js);
 *   6. record the transfer as posted;
 *   7. release both locks.
 * Everything from 2 to 6 happens while both locks are held, so nobody can see
 * a debit without its credit, or book the same transfer twice.
 *
 * Outcomes:
 *   'posted'     the money moved; the API answers 201
 *   'duplicate'  this id was posted before; nothing moved this time; 200
 *   'declined'   the sender's balance is too low; nothing moved; 422
 * Errors (an invalid request, an unknown account, a store failure) are thrown.
 */

import { quietLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { createAccountLocks } from '../ledger/account-locks.js';
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
  const accountLocks = createAccountLocks({ locks, clock, logger: log, metrics });
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

    // A retry of a transfer that was posted already is answered without
    // taking any lock: the app retries after every 504, and during
    // INC-2026-0422 those retries queued behind the stuck account locks. A
    // transfer record never changes once written (find() reads it without
    // locks for the same reason), so there is nothing to protect here.
    if (await ledger.postedTransfer(t.id)) {
      metrics.increment('transfer duplicates');
      log.info({ transfer: t.id, msg: 'already posted', result: 'duplicate' });
      return 'duplicate';
    }

    const held = await accountLocks.lockBoth(t);
    try {
      const fromBalance = await ledger.balance(t.from);
      if (fromBalance < t.amountCents) {
        metrics.increment('transfers declined');
        log.info({ transfer: t.id, msg: 'insufficient funds', result: 'declined', balance: formatAmount(fromBalance) });
        return 'declined';
      }
      const toBalance = await ledger.balance(t.to);

      await ledger.setBalance(t.from, fromBalance - t.amountCents);
      await ledger.setBalance(t.to, toBalance + t.amountCents);
      const { entryId = null } = (await journal.post(journalEntryFor(t, clock.now()))) ?? {};
      await ledger.recordPosted(t, entryId);

      metrics.increment('transfers posted');
      log.info({ transfer: t.id, msg: 'posted', result: 'posted', entry: entryId, ms: clock.now() - started });
      return 'posted';
    } finally {
      await held.release();
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
