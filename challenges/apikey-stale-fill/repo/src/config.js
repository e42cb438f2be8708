/**
 * Settings of one gatekeeper process, from the environment, with the defaults
 * production runs with (see deploy/gatekeeper.yaml).
 */

/**
 * @typedef {object} Config
 * @property {number} port HTTP port the API edge and the admin console call
 * @property {'debug' | 'info' | 'warn' | 'error'} logLevel
 * @property {string} storeUrl the shared cache's command gateway
 * @property {string} keysDbUrl the keys database's query gateway (the primary)
 * @property {number} keyCacheTtlMs how long a key record stays in the shared cache
 */

/**
 * Reads the settings from an environment (process.env by default).
 * @param {Record<string, string | undefined>} [env]
 * @returns {Config}
 */
export function loadConfig(env = process.env) {
  return Object.freeze({
    port: integer(env.PORT, 8080),
    logLevel: env.LOG_LEVEL ?? 'info',
    storeUrl: env.STORE_URL ?? 'http://localhost:7379/v1/command',
    keysDbUrl: env.KEYS_DB_URL ?? 'http://localhost:7432/v1/query',
    keyCacheTtlMs: integer(env.KEY_CACHE_TTL_SECONDS, 900) * 1000,
  });
}

function integer(value, fallback) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
