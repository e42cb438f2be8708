/**
 * Settings and their defaults. Production values come from
 * deploy/gateway.yaml through the environment; the defaults below mirror it.
 *
 * @typedef {object} GatewayConfig
 * @property {number} windowMs length of a quota window. Windows are aligned to
 *   the clock: with 1000 ms, 06:00:00.000–06:00:00.999 is one window, and that
 *   is also the second Meridian counts a partner's messages in.
 * @property {number} counterTtlMs how long the store keeps a window's counter.
 *   Longer than the window: a request accepted at the very end of a window
 *   may still reach the store after the window ended (a store call takes up to
 *   storeTimeoutMs), and it must still find that window's counter.
 * @property {number} storeTimeoutMs the quota store client gives up after this long
 * @property {number} carrierAttempts calls to Meridian per message, the first included
 * @property {number} carrierRetryDelayMs wait before repeating a call Meridian answered 503
 * @property {string} logLevel
 */

/** @type {Readonly<GatewayConfig>} */
export const defaultConfig = Object.freeze({
  windowMs: 1000,
  counterTtlMs: 2000,
  storeTimeoutMs: 250,
  carrierAttempts: 2,
  carrierRetryDelayMs: 200,
  logLevel: 'info',
});

/**
 * Reads overrides from the environment (names as in deploy/gateway.yaml).
 * @param {Record<string, string | undefined>} env
 * @returns {GatewayConfig}
 */
export function configFromEnv(env) {
  const number = (name, fallback) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number, got ${JSON.stringify(raw)}`);
    return value;
  };
  return {
    windowMs: number('QUOTA_WINDOW_MS', defaultConfig.windowMs),
    counterTtlMs: number('QUOTA_COUNTER_TTL_MS', defaultConfig.counterTtlMs),
    storeTimeoutMs: number('QUOTA_STORE_TIMEOUT_MS', defaultConfig.storeTimeoutMs),
    carrierAttempts: number('MERIDIAN_ATTEMPTS', defaultConfig.carrierAttempts),
    carrierRetryDelayMs: number('MERIDIAN_RETRY_DELAY_MS', defaultConfig.carrierRetryDelayMs),
    logLevel: env.LOG_LEVEL || defaultConfig.logLevel,
  };
}
