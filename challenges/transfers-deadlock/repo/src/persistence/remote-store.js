/**
 * The balance store (ledger-kv), as the pods see it.
 *
 * A Redis-compatible key-value store shared by every pod. It holds the
 * balances and the transfer records:
 *
 *   balance:<accountId>   the balance in cents, as a decimal string ("12500")
 *   transfer:<id>         JSON record of a posted transfer (see src/ledger/transfer-records.js)
 *
 * Every call is a network round trip, and calls from other pods reach the
 * store in between any two calls of yours. The store has no transactions:
 * keeping two balances consistent with each other is the account locks' job
 * (src/ledger/account-locks.js), not the store's.
 *
 * @typedef {object} WriteOptions
 * @property {number} [ttlMs] expire the key this many milliseconds after the write
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get the value, or null if absent
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<void>} set
 *   writes `value`, overwriting whatever is there (SET)
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<boolean>} setIfAbsent
 *   writes only if the key is absent, as one step in the store; true if it wrote (SET NX)
 * @property {(key: string) => Promise<void>} delete removes the key (DEL)
 */

/**
 * Carries one command to the store and resolves with its reply.
 * @typedef {(command: Array<string | number>) => Promise<unknown>} Transport
 */

/** @implements {KeyValueStore} */
export class RemoteStore {
  #send;

  /** @param {{ transport: Transport }} options */
  constructor({ transport }) {
    if (typeof transport !== 'function') throw new TypeError('RemoteStore: transport must be a function');
    this.#send = transport;
  }

  async get(key) {
    const reply = await this.#send(['GET', key]);
    return reply === null || reply === undefined ? null : String(reply);
  }

  async set(key, value, options = {}) {
    await this.#send(['SET', key, value, ...px(options)]);
  }

  async setIfAbsent(key, value, options = {}) {
    return (await this.#send(['SET', key, value, 'NX', ...px(options)])) === 'OK';
  }

  async delete(key) {
    await this.#send(['DEL', key]);
  }
}

/**
 * Transport for ledger-kv's HTTP command endpoint: POST a JSON array, get
 * `{ "result": ... }` or `{ "error": "..." }` back.
 *
 * @param {{ url: string, token?: string, timeoutMs?: number, fetch?: typeof fetch }} options
 * @returns {Transport}
 */
export function createHttpTransport({ url, token, timeoutMs = 1000, fetch = globalThis.fetch }) {
  return async (command) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(command),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || body.error) throw new Error(`ledger-kv ${command[0]} failed: ${body.error ?? `HTTP ${response.status}`}`);
    return body.result ?? null;
  };
}

function px({ ttlMs } = {}) {
  if (ttlMs === undefined) return [];
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be a positive integer, got ${ttlMs}`);
  return ['PX', ttlMs];
}
