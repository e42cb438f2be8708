/**
 * The ledger's keys in ledger-kv: balances and transfer records.
 *
 *   balance:<accountId>   balance in cents, a decimal string; every account has one
 *   transfer:<id>         JSON record of a transfer once it was posted
 *
 * Neither is safe to use on its own: read and write a balance only while the
 * account's lock is held (src/ledger/account-locks.js).
 */

/** The balance key of an account. */
export function balanceKey(accountId) {
  return `balance:${accountId}`;
}

/** The record key of a transfer. */
export function transferKey(transferId) {
  return `transfer:${transferId}`;
}

/** The account does not exist (it has no balance key). The API answers 404. */
export class UnknownAccountError extends Error {
  name = 'UnknownAccountError';
}

/**
 * @typedef {object} TransferRecord
 * @property {string} id
 * @property {string} from
 * @property {string} to
 * @property {number} amountCents
 * @property {string} reason
 * @property {string | null} entryId the journal entry that posted it
 * @property {string} postedAt ISO timestamp
 */

/**
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store
 * @param {import('../clock.js').Clock} options.clock
 */
export function createLedgerStore({ store, clock }) {
  return {
    /**
     * The balance of an account, in cents.
     * @param {string} accountId
     * @returns {Promise<number>}
     * @throws {UnknownAccountError}
     */
    async balance(accountId) {
      const raw = await store.get(balanceKey(accountId));
      if (raw === null) throw new UnknownAccountError(`no such account: ${accountId}`);
      const cents = Number(raw);
      if (!Number.isSafeInteger(cents)) throw new Error(`balance of ${accountId} is corrupt: ${JSON.stringify(raw)}`);
      return cents;
    },

    /**
     * Overwrites the balance of an account.
     * @param {string} accountId
     * @param {number} cents
     */
    async setBalance(accountId, cents) {
      await store.set(balanceKey(accountId), String(cents));
    },

    /**
     * The record of a posted transfer, or null.
     * @param {string} transferId
     * @returns {Promise<TransferRecord | null>}
     */
    async postedTransfer(transferId) {
      const raw = await store.get(transferKey(transferId));
      return raw === null ? null : JSON.parse(raw);
    },

    /**
     * Records that a transfer was posted.
     * @param {import('../transfers/transfer.js').Transfer} transfer
     * @param {string | null} entryId
     */
    async recordPosted(transfer, entryId) {
      const { id, from, to, amountCents, reason } = transfer;
      const record = { id, from, to, amountCents, reason, entryId, postedAt: new Date(clock.now()).toISOString() };
      await store.set(transferKey(id), JSON.stringify(record));
    },
  };
}
