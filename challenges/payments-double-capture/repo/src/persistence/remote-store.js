/**
 * The shared Redis, as every payments-api instance sees it.
 *
 * All instances talk to the same Redis through the platform's command
 * gateway (REDIS_GATEWAY_URL), so anything written here is visible to every
 * instance. Each call is a network round trip: it is asynchronous, and other
 * instances' calls can reach Redis between any two calls of yours.
 *
 * Values are strings. A key written with `ttlMs` disappears `ttlMs`
 * milliseconds after the write, on Redis's clock.
 *
 * @typedef {object} WriteOptions
 * @property {number} [ttlMs] expire the key this many milliseconds after the write
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 *   The value of `key`, or null if there is none (or it expired). (GET)
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<void>} set
 *   Writes `value`, replacing whatever `key` held. (SET key value [PX ttl])
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<boolean>} setIfAbsent
 *   Writes `value` only if `key` holds nothing. Redis checks and writes in
 *   one step, so of several callers racing for the same key exactly one gets
 *   true. (SET key value NX [PX ttl])
 * @property {(key: string, expected: string) => Promise<boolean>} compareAndDelete
 *   Deletes `key` only if it still holds `expected`, in one step. True if
 *   this call deleted it. (a server-side script)
 * @property {(key: string) => Promise<void>} delete
 *   Deletes `key` whatever it holds. (DEL)
 */

/** Deletes KEYS[1] only while it holds ARGV[1]. */
const DELETE_IF_EQUALS = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

/**
 * Redis through the command gateway: each command is POSTed as a JSON array
 * and answered with `{ "result": ... }` or `{ "error": "..." }`.
 *
 * @implements {KeyValueStore}
 */
export class RedisGatewayStore {
  #url;
  #token;
  #timeoutMs;
  #fetch;

  /**
   * @param {object} options
   * @param {string} options.url e.g. https://redis-gw.internal.tessera.example/v1/command
   * @param {string} [options.token] bearer token
   * @param {number} [options.timeoutMs] per command; the gateway answers well within 1 s
   * @param {typeof fetch} [options.fetch] injectable for tests
   */
  constructor({ url, token, timeoutMs = 1000, fetch = globalThis.fetch }) {
    if (!url) throw new TypeError('RedisGatewayStore: url is required');
    this.#url = url;
    this.#token = token;
    this.#timeoutMs = timeoutMs;
    this.#fetch = fetch;
  }

  async get(key) {
    const result = await this.#command(['GET', key]);
    return result === null ? null : String(result);
  }

  async set(key, value, options = {}) {
    await this.#command(['SET', key, value, ...ttl(options)]);
  }

  async setIfAbsent(key, value, options = {}) {
    return (await this.#command(['SET', key, value, 'NX', ...ttl(options)])) === 'OK';
  }

  async compareAndDelete(key, expected) {
    return Number(await this.#command(['EVAL', DELETE_IF_EQUALS, 1, key, expected])) === 1;
  }

  async delete(key) {
    await this.#command(['DEL', key]);
  }

  async #command(command) {
    const response = await this.#fetch(this.#url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(this.#token ? { authorization: `Bearer ${this.#token}` } : {}) },
      body: JSON.stringify(command),
      signal: AbortSignal.timeout(this.#timeoutMs),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || body.error) throw new Error(`redis ${command[0]} failed: ${body.error ?? `HTTP ${response.status}`}`);
    return body.result ?? null;
  }
}

function ttl({ ttlMs } = {}) {
  if (ttlMs === undefined) return [];
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be a positive integer, got ${ttlMs}`);
  return ['PX', ttlMs];
}
