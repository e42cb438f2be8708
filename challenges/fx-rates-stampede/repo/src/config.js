/**
 * Settings of one fx-rates process, from the environment, with the defaults
 * production runs with (see deploy/fx-rates.yaml).
 */

/** The currency every price is stored in; rates convert from it. */
export const BASE_CURRENCY = 'USD';

/**
 * @typedef {object} Config
 * @property {number} port HTTP port the checkout pages call
 * @property {'debug' | 'info' | 'warn' | 'error'} logLevel
 * @property {string} storeUrl the shared store's command gateway
 * @property {string} ratewireUrl the Ratewire API
 * @property {string} ratewireKey our API key (one key for every process)
 * @property {number} ratewireTimeoutMs how long a Ratewire request may take before we give up on it
 * @property {number} rateTtlMs how long a rate stays in the shared store
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
    ratewireUrl: env.RATEWIRE_URL ?? 'https://api.ratewire.example/v2',
    ratewireKey: env.RATEWIRE_KEY ?? '',
    ratewireTimeoutMs: integer(env.RATEWIRE_TIMEOUT_MS, 800),
    rateTtlMs: integer(env.RATE_TTL_SECONDS, 600) * 1000,
  });
}

function integer(value, fallback) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
