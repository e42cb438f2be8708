/**
 * The quota store: a Redis-compatible key-value store shared by every gateway
 * pod, reached through its HTTP command endpoint. Each method below is one
 * command, one round trip; the store runs one command at a time, so each call
 * is a single step there. There are no multi-command transactions (no
 * MULTI/EXEC, no WATCH, no scripts).
 *
 * Values are strings. `ttlMs` makes a key expire on the store's clock; a key
 * written without it never expires.
 *
 * @typedef {object} KeyValueStore
 * @property {(key: string) => Promise<string | null>} get
 *   the value, or null when the key is absent or expired (GET)
 * @property {(key: string, value: string, options?: { ttlMs?: number }) => Promise<void>} set
 *   writes the value, replacing any value and expiry (SET [PX])
 * @property {(key: string, value: string, options?: { ttlMs?: number }) => Promise<boolean>} setIfAbsent
 *   writes only if the key is absent; true if it wrote (SET NX [PX])
 * @property {(key: string, expected: string | null, value: string, options?: { ttlMs?: number }) => Promise<boolean>} compareAndSet
 *   writes only if the value is `expected` (null: absent), replacing the expiry; true if it wrote
 * @property {(key: string, delta: number) => Promise<number>} incrBy
 *   adds `delta` to the integer at key (an absent key counts as 0) and returns
 *   the result; the key keeps the expiry it had, and one it creates has none (INCRBY)
 * @property {(key: string, ttlMs: number) => Promise<boolean>} expire
 *   sets a key's expiry to ttlMs from now; false if the key is absent (PEXPIRE)
 * @property {(key: string) => Promise<void>} delete (DEL)
 */

/**
 * The production client.
 * @param {object} options
 * @param {string} options.url the command endpoint, e.g. http://quota-store.sms.svc:7379/cmd
 * @param {number} options.timeoutMs a call that takes longer fails
 * @returns {KeyValueStore}
 */
export function createRemoteStore({ url, timeoutMs }) {
  async function command(name, ...args) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ command: name, args }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`quota store answered ${response.status} to ${name}`);
    return (await response.json()).result;
  }

  return {
    get: (key) => command('GET', key),
    set: async (key, value, { ttlMs } = {}) => { await command('SET', key, value, ...(ttlMs ? ['PX', ttlMs] : [])); },
    setIfAbsent: async (key, value, { ttlMs } = {}) => (await command('SET', key, value, 'NX', ...(ttlMs ? ['PX', ttlMs] : []))) === 'OK',
    compareAndSet: async (key, expected, value, { ttlMs } = {}) => (await command('CAS', key, expected, value, ...(ttlMs ? ['PX', ttlMs] : []))) === 1,
    incrBy: (key, delta) => command('INCRBY', key, delta),
    expire: async (key, ttlMs) => (await command('PEXPIRE', key, ttlMs)) === 1,
    delete: async (key) => { await command('DEL', key); },
  };
}
