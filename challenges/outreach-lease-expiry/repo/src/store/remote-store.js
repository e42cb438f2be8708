/**
 * The shared key-value store (Redis-compatible) that every outreach worker
 * talks to: shard claims and sent-state live here.
 *
 * Every call is a network round trip. While one call is on the wire, other
 * workers' calls reach the store, and keys with a lease expire on the store's
 * own clock, whatever the calling worker believes the time to be.
 *
 * Values are strings. A key written with `ttlMs` lapses that many
 * milliseconds after the write.
 *
 * @typedef {object} WriteOptions
 * @property {number} [ttlMs] lease: the key lapses this many milliseconds after the write
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 *   The value of `key`, or null if it does not exist or has lapsed.            (GET)
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<void>} set
 *   Writes `value`, replacing whatever was there.                             (SET [PX])
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<boolean>} setIfAbsent
 *   Writes `value` only if `key` does not exist, as one step inside the store.
 *   True if this call wrote it.                                               (SET NX [PX])
 * @property {(key: string, expected: string) => Promise<boolean>} compareAndDelete
 *   Deletes `key` only if it still holds `expected`, as one step inside the
 *   store. True if this call deleted it.                                      (script)
 * @property {(key: string, expected: string, ttlMs: number) => Promise<boolean>} compareAndExpire
 *   Only if `key` still holds `expected`: sets its lease to end `ttlMs` from
 *   now, as one step inside the store. True if this call did.                 (script)
 * @property {(key: string, ttlMs: number) => Promise<boolean>} expire
 *   Sets the lease of `key`, whatever it holds, to end `ttlMs` from now.
 *   True if the key existed.                                                  (PEXPIRE)
 * @property {(key: string) => Promise<void>} delete
 *   Deletes `key`, whatever it holds.                                         (DEL)
 */

/**
 * Carries one command to the store and resolves with its reply.
 * @typedef {(command: Array<string | number>) => Promise<unknown>} Transport
 */

/** Server-side script: delete KEYS[1] only while it holds ARGV[1]. */
const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/** Server-side script: re-arm the lease of KEYS[1] only while it holds ARGV[1]. */
const COMPARE_AND_EXPIRE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;

/**
 * Client for the store, on top of a transport that carries Redis-style commands.
 * @implements {KeyValueStore}
 */
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
    await this.#send(['SET', key, value, ...lease(options.ttlMs)]);
  }

  async setIfAbsent(key, value, options = {}) {
    return (await this.#send(['SET', key, value, 'NX', ...lease(options.ttlMs)])) === 'OK';
  }

  async compareAndDelete(key, expected) {
    return Number(await this.#send(['EVAL', COMPARE_AND_DELETE, 1, key, expected])) === 1;
  }

  async compareAndExpire(key, expected, ttlMs) {
    return Number(await this.#send(['EVAL', COMPARE_AND_EXPIRE, 1, key, expected, ...lease(ttlMs).slice(1)])) === 1;
  }

  async expire(key, ttlMs) {
    return Number(await this.#send(['PEXPIRE', key, ...lease(ttlMs).slice(1)])) === 1;
  }

  async delete(key) {
    await this.#send(['DEL', key]);
  }
}

/**
 * A transport for the store's HTTP command gateway: each command is POSTed as
 * a JSON array; the gateway answers `{ "result": … }` or `{ "error": "…" }`.
 *
 * @param {object} options
 * @param {string} options.url gateway endpoint
 * @param {string} [options.token] bearer token
 * @param {number} [options.timeoutMs] per-command timeout; the gateway answers well within 1 s
 * @param {typeof fetch} [options.fetch]
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
    if (!response.ok || body.error) throw new Error(`store ${command[0]} failed: ${body.error ?? `HTTP ${response.status}`}`);
    return body.result ?? null;
  };
}

function lease(ttlMs) {
  if (ttlMs === undefined) return [];
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be a positive integer, got ${ttlMs}`);
  return ['PX', ttlMs];
}
