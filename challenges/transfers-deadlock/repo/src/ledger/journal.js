/**
 * The general ledger's journal: the accounting record of every money
 * movement, which finance reconciles against the balances every night.
 *
 * Each transfer is posted as one entry with two legs that add up to zero: the
 * debit of the sender and the credit of the receiver. The journal stores what
 * it is sent and does not deduplicate: posting a transfer twice books it
 * twice.
 *
 * @typedef {object} JournalEntry
 * @property {string} transferId
 * @property {string} postedAt ISO timestamp
 * @property {'EUR'} currency
 * @property {Array<{ account: string, amountCents: number }>} legs
 *
 * @typedef {object} Journal
 * @property {(entry: JournalEntry) => Promise<{ entryId: string }>} post
 */

/**
 * The journal entry of a transfer.
 * @param {import('../transfers/transfer.js').Transfer} transfer
 * @param {number} at milliseconds since the epoch
 * @returns {JournalEntry}
 */
export function journalEntryFor(transfer, at) {
  return {
    transferId: transfer.id,
    postedAt: new Date(at).toISOString(),
    currency: 'EUR',
    legs: [
      { account: transfer.from, amountCents: -transfer.amountCents },
      { account: transfer.to, amountCents: transfer.amountCents },
    ],
  };
}

/**
 * Client for the general ledger's HTTP API.
 * @param {{ url: string, token?: string, timeoutMs?: number, fetch?: typeof fetch }} options
 * @returns {Journal}
 */
export function createJournalClient({ url, token, timeoutMs = 1000, fetch = globalThis.fetch }) {
  return {
    async post(entry) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(entry),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`journal rejected ${entry.transferId}: HTTP ${response.status}`);
      const body = await response.json();
      return { entryId: String(body.entryId) };
    },
  };
}

/**
 * A journal that keeps entries in memory, for `npm start`.
 * @returns {Journal & { entries: JournalEntry[] }}
 */
export function createMemoryJournal() {
  const entries = [];
  return {
    entries,
    async post(entry) {
      entries.push(entry);
      return { entryId: `je_${String(entries.length).padStart(6, '0')}` };
    },
  };
}
