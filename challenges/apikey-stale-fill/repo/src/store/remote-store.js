/**
 * The shared cache (Redis, "auth-cache"), as both gatekeeper processes see it.
 * Every call is a network round trip: the other process's calls can reach the
 * cache between any two of yours. Values are strings; a key written with
 * `ttlMs` disappears that many milliseconds after the write.
 *
 * @typedef {{ ttlMs?: number }} WriteOptions
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 *   the value, or null when the key does not exist (or expired). (GET)
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<void>} set
 *   writes the value, replacing any. (SET key value [PX ttl])
 * @property {(key: string, value: string, options?: WriteOptions) => Promise<boolean>} setIfAbsent
 *   writes the value only when the key does not exist, checked and written in one
 *   step inside the cache; true when this call wrote it. (SET key value NX [PX ttl])
 * @property {(key: string, expected: string | null, value: string, options?: WriteOptions) => Promise<boolean>} compareAndSet
 *   writes the value only while the key holds `expected` (null: while it does not
 *   exist), in one step inside the cache; true when this call wrote it. (a server-side script)
 * @property {(key: string, expected: string) => Promise<boolean>} compareAndDelete
 *   deletes the key only while it holds `expected`, in one step; true when this
 *   call deleted it. (a server-side script)
 * @property {(key: string) => Promise<void>} delete
 *   deletes the key whatever it holds. (DEL)
 * @property {(key: string, delta: number) => Promise<number>} incrBy
 *   adds `delta` to the integer the key holds (a missing key counts as 0) and
 *   returns the result. (INCRBY)
 */

/** The server-side script behind compareAndSet: ARGV[1] is '' for "absent", ARGV[3] the TTL or ''. */
const SET_IF_EQUAL = `local current = redis.call('GET', KEYS[1])
if (ARGV[1] == '' and current == false) or current == ARGV[1] then
  if ARGV[3] == '' then redis.call('SET', KEYS[1], ARGV[2]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
  return 1
end
return 0`;

/** The server-side script behind compareAndDelete. */
const DELETE_IF_EQUAL = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

/**
 * Creates the production client: commands go to the cache's HTTP command
 * gateway, one POST each, and come back as { result } or { error }.
 * @param {{ url: string, timeoutMs?: number, fetch?: typeof fetch }} options
 * @returns {KeyValueStore}
 */
export function createRemoteStore({ url, timeoutMs = 50, fetch = globalThis.fetch }) {
  const command = async (...args) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(args),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || body.error) throw new Error(`cache ${args[0]} failed: ${body.error ?? `HTTP ${response.status}`}`);
    return body.result ?? null;
  };
  const px = ({ ttlMs } = {}) => (ttlMs === undefined ? [] : ['PX', ttlMs]);
  return {
    get: async (key) => {
      const value = await command('GET', key);
      return value === null ? null : String(value);
    },
    set: async (key, value, options) => {
      await command('SET', key, value, ...px(options));
    },
    setIfAbsent: async (key, value, options) => (await command('SET', key, value, 'NX', ...px(options))) === 'OK',
    compareAndSet: async (key, expected, value, { ttlMs } = {}) =>
      Number(await command('EVAL', SET_IF_EQUAL, 1, key, expected ?? '', value, ttlMs ?? '')) === 1,
    compareAndDelete: async (key, expected) => Number(await command('EVAL', DELETE_IF_EQUAL, 1, key, expected)) === 1,
    delete: async (key) => {
      await command('DEL', key);
    },
    incrBy: async (key, delta) => Number(await command('INCRBY', key, delta)),
  };
}
