/**
 * The shared key-value store (Redis-compatible), as the workers see it.
 *
 * Since the 2026-03 migration every worker process talks to the same remote
 * store instead of keeping state in its own memory, so locks and sent-records
 * are visible across processes. Every call is a network round trip: it is
 * asynchronous, and other workers' calls can reach the store in between.
 *
 * Values are always strings. Keys written with `ttlMs` expire `ttlMs`
 * milliseconds after the write, on the store's clock.
 *
 * @typedef {object} WriteOptions
 * @property {number} [ttlMs] expire the key this many milliseconds after the write
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 *   The value of `key`, or null if it does not exist (or has expired).
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<void>} set
 *   Writes `value` whether or not `key` exists (overwrites). (SET key value [PX ttl])
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<boolean>} setIfAbsent
 *   Writes `value` only if `key` does not exist. The check and the write happen
 *   as one step inside the store. Resolves true if this call wrote the value,
 *   false if the key already existed. (SET key value NX [PX ttl])
 * @property {(key: string, expected: string) => Promise<boolean>} compareAndDelete
 *   Deletes `key` only if its current value equals `expected`, as one step
 *   inside the store. Resolves true if this call deleted it. (server-side script)
 * @property {(key: string) => Promise<void>} delete
 *   Deletes `key` whatever its value. (DEL key)
 */

/**
 * Sends one command to the store and resolves with its reply.
 * @typedef {(command: Array<string | number>) => Promise<unknown>} Transport
 */

/** Server-side script: delete KEYS[1] only while it still holds ARGV[1]. */
const COMPARE_AND_DELETE_SCRIPT = [
  "if redis.call('GET', KEYS[1]) == ARGV[1] then",
  "  return redis.call('DEL', KEYS[1])",
  'end',
  'return 0',
].join('\n');

/**
 * Client for the remote store. Implements {@link KeyValueStore} on top of a
 * transport that carries Redis-style commands.
 *
 * @implements {KeyValueStore}
 */
export class RemoteStore {
  #transport;

  /**
   * @param {object} options
   * @param {Transport} options.transport carries commands to the store
   */
  constructor({ transport }) {
    if (typeof transport !== 'function') throw new TypeError('RemoteStore: transport must be a function');
    this.#transport = transport;
  }

  /** @param {string} key */
  async get(key) {
    const reply = await this.#transport(['GET', key]);
    return reply === null || reply === undefined ? null : String(reply);
  }

  /** @param {string} key @param {string} value @param {WriteOptions} [options] */
  async set(key, value, options = {}) {
    await this.#transport(['SET', key, value, ...expiry(options)]);
  }

  /** @param {string} key @param {string} value @param {WriteOptions} [options] */
  async setIfAbsent(key, value, options = {}) {
    const reply = await this.#transport(['SET', key, value, 'NX', ...expiry(options)]);
    return reply === 'OK';
  }

  /** @param {string} key @param {string} expected */
  async compareAndDelete(key, expected) {
    const reply = await this.#transport(['EVAL', COMPARE_AND_DELETE_SCRIPT, 1, key, expected]);
    return Number(reply) === 1;
  }

  /** @param {string} key */
  async delete(key) {
    await this.#transport(['DEL', key]);
  }
}

/**
 * A transport for the store's HTTP command gateway: each command is POSTed as
 * a JSON array and the gateway answers `{ "result": … }` or `{ "error": "…" }`.
 *
 * @param {object} options
 * @param {string} options.url gateway endpoint, e.g. https://kv.internal/v1/command
 * @param {string} [options.token] bearer token, if the gateway requires one
 * @param {number} [options.timeoutMs] per-command timeout; the gateway answers well within 1 s
 * @param {typeof fetch} [options.fetch] fetch implementation (injectable for tests)
 * @returns {Transport}
 */
export function createHttpTransport({ url, token, timeoutMs = 1000, fetch = globalThis.fetch }) {
  return async (command) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(command),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || body.error) {
      throw new Error(`store ${command[0]} failed: ${body.error ?? `HTTP ${response.status}`}`);
    }
    return body.result ?? null;
  };
}

function expiry({ ttlMs } = {}) {
  if (ttlMs === undefined) return [];
  if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`ttlMs must be a positive integer, got ${ttlMs}`);
  return ['PX', ttlMs];
}
