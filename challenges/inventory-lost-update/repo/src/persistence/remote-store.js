/**
 * The inventory cache: a Redis-compatible store shared by every checkout pod,
 * the stock loader and the storefront badge.
 *
 * Every call is one command sent over the network to the cache's HTTP command
 * gateway. The cache runs one command at a time, so each method below is a
 * single step there: nothing another pod sends can land in the middle of one
 * call. Between two calls, anything can. The gateway has no multi-command
 * transactions (no MULTI/EXEC, no WATCH).
 *
 * Values are strings. Writes may carry `{ ttlMs }`: the key then disappears
 * that many milliseconds later.
 *
 * @typedef {object} WriteOptions
 * @property {number} [ttlMs]
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 *   The value, or null if there is none. (GET)
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<void>} set
 *   Writes the value, replacing whatever was there. (SET [PX])
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<boolean>} setIfAbsent
 *   Writes only if the key has no value; true if this call wrote. (SET NX [PX])
 * @property {(key: string, expected: string | null, value: string, options?: WriteOptions) => Promise<boolean>} compareAndSet
 *   Writes `value` only if the key currently holds `expected` (null: the key
 *   is absent). Compare and write are one step in the cache. True if this call
 *   wrote. (server-side script)
 * @property {(key: string, expected: string) => Promise<boolean>} compareAndDelete
 *   Deletes the key only if it holds `expected`; true if this call deleted it. (server-side script)
 * @property {(key: string, delta: number) => Promise<number>} incrBy
 *   Adds `delta` (which may be negative) to the integer stored at the key, in
 *   one step, and resolves with the new value. A missing key counts as 0. (INCRBY)
 * @property {(key: string) => Promise<void>} delete
 *   Removes the key. (DEL)
 */

/**
 * Carries one command to the cache and resolves with its reply.
 * @typedef {(command: Array<string | number>) => Promise<unknown>} Transport
 */

const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if (ARGV[1] == '' and current == false) or current == ARGV[2] then
  if ARGV[4] ~= '' then redis.call('SET', KEYS[1], ARGV[3], 'PX', ARGV[4])
  else redis.call('SET', KEYS[1], ARGV[3]) end
  return 1
end
return 0`;

const COMPARE_AND_DELETE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/**
 * The production client.
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
    await this.#send(['SET', key, value, ...px(options)]);
  }

  async setIfAbsent(key, value, options = {}) {
    return (await this.#send(['SET', key, value, 'NX', ...px(options)])) === 'OK';
  }

  async compareAndSet(key, expected, value, options = {}) {
    // ARGV[1] flags "expected absent"; ARGV[2] is the expected value otherwise.
    const absent = expected === null ? '' : '1';
    const ttl = options.ttlMs === undefined ? '' : px(options)[1];
    const reply = await this.#send(['EVAL', COMPARE_AND_SET, 1, key, absent, expected ?? '', value, ttl]);
    return Number(reply) === 1;
  }

  async compareAndDelete(key, expected) {
    return Number(await this.#send(['EVAL', COMPARE_AND_DELETE, 1, key, expected])) === 1;
  }

  async incrBy(key, delta) {
    if (!Number.isInteger(delta)) throw new TypeError(`incrBy(): delta must be an integer, got ${delta}`);
    return Number(await this.#send(['INCRBY', key, delta]));
  }

  async delete(key) {
    await this.#send(['DEL', key]);
  }
}

/**
 * A transport for the cache's HTTP command gateway: POST a JSON array, get
 * `{ "result": … }` or `{ "error": "…" }` back.
 *
 * @param {object} options
 * @param {string} options.url e.g. https://inventory-cache.fernhill.internal/v1/command
 * @param {string} [options.token] bearer token
 * @param {number} [options.timeoutMs] per command; the gateway answers well within 1 s
 * @param {typeof fetch} [options.fetch]
 * @returns {Transport}
 */
export function createGatewayTransport({ url, token, timeoutMs = 1000, fetch = globalThis.fetch }) {
  return async (command) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(command),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || body.error) {
      throw new Error(`inventory cache ${command[0]} failed: ${body.error ?? `HTTP ${response.status}`}`);
    }
    return body.result ?? null;
  };
}

function px({ ttlMs } = {}) {
  if (ttlMs === undefined) return [];
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be a positive integer, got ${ttlMs}`);
  return ['PX', ttlMs];
}
