/**
 * Settings of the checkout service.
 *
 * The defaults are what production runs with (deploy/checkout.yaml). The
 * pipeline renders that file into environment variables, which loadConfig()
 * reads; change both together.
 */

/** @typedef {typeof defaultConfig} CheckoutConfig */

export const defaultConfig = Object.freeze({
  /** Pods behind the load balancer. Was 1 until OPS-912 (2026-03-17). */
  replicas: 2,
  /** Where reservations are kept. Was 'postgres' until INV-640 (2026-03-12). */
  reservations: 'cache',
  /** Drop rule: most bags of one SKU a single order may take. */
  maxQuantityPerOrder: 2,
  /** Calls made for one charge, the first included. Was 1 until PAY-388 (2026-03-19). */
  pspAttempts: 2,
  /** Pause before repeating a timed-out charge. */
  pspRetryDelayMs: 250,
  /** How long the PSP client waits for an answer before calling it a time-out. */
  pspTimeoutMs: 800,
  /** max-age of the stock badge at the CDN. Was 5 until WEB-1207 (2026-03-18). */
  badgeMaxAgeSeconds: 30,
  /** Port of the HTTP server. */
  port: 8080,
});

/**
 * Reads the settings from environment variables, falling back to the defaults.
 *
 * @param {Record<string, string | undefined>} [env] usually process.env
 * @returns {CheckoutConfig}
 * @throws {RangeError} for a variable that is set but not a positive integer
 */
export function loadConfig(env = {}) {
  return Object.freeze({
    ...defaultConfig,
    reservations: env.RESERVATIONS || defaultConfig.reservations,
    maxQuantityPerOrder: positive(env, 'MAX_QUANTITY_PER_ORDER', defaultConfig.maxQuantityPerOrder),
    pspAttempts: positive(env, 'PSP_ATTEMPTS', defaultConfig.pspAttempts),
    pspRetryDelayMs: positive(env, 'PSP_RETRY_DELAY_MS', defaultConfig.pspRetryDelayMs),
    pspTimeoutMs: positive(env, 'PSP_TIMEOUT_MS', defaultConfig.pspTimeoutMs),
    badgeMaxAgeSeconds: positive(env, 'BADGE_MAX_AGE_SECONDS', defaultConfig.badgeMaxAgeSeconds),
    port: positive(env, 'PORT', defaultConfig.port),
  });
}

function positive(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}
