/**
 * Settings of one ledger-transfers pod.
 *
 * The defaults mirror deploy/ledger.yaml, which production runs with; the
 * deploy pipeline turns that file into environment variables that
 * loadConfig() reads. Change both together.
 */

export const defaultConfig = Object.freeze({
  /** HTTP port of the transfer API. */
  port: 8080,
  /**
   * Connections each pod keeps to the lock service. A call waiting for a lock
   * keeps its connection until the lock is granted. Was 64 until PLT-988
   * (2026-04-16).
   */
  lockPoolSize: 16,
  /**
   * How long the transfer route waits for fraud screening before failing the
   * request. Was 1500 until RSK-207 (2026-04-20) added the device-risk lookup.
   */
  fraudTimeoutMs: 2500,
  /**
   * The API gateway's limit. Not enforced here: after 30 s the gateway answers
   * 504 to the app, and the handler in the pod carries on regardless.
   */
  gatewayTimeoutMs: 30_000,
});

/** @typedef {typeof defaultConfig} LedgerConfig */

/**
 * Builds the configuration from environment variables, falling back to the
 * defaults for anything unset.
 *
 * @param {Record<string, string | undefined>} [env] usually process.env
 * @returns {LedgerConfig}
 * @throws {RangeError} for a variable that is not a positive integer
 */
export function loadConfig(env = {}) {
  return Object.freeze({
    ...defaultConfig,
    port: positiveInt(env, 'PORT', defaultConfig.port),
    lockPoolSize: positiveInt(env, 'LOCK_POOL_SIZE', defaultConfig.lockPoolSize),
    fraudTimeoutMs: positiveInt(env, 'FRAUD_TIMEOUT_MS', defaultConfig.fraudTimeoutMs),
  });
}

function positiveInt(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) {
    throw new RangeError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}
