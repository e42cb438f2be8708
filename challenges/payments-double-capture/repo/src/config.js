/**
 * payments-api settings.
 *
 * The defaults mirror deploy/payments-api.yaml, which is what prod-eu runs
 * with. The deploy pipeline turns that file into environment variables and
 * loadConfig() reads them back; change both together.
 */

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;
const DAY = 24 * HOUR;

/** @typedef {typeof defaultConfig} ApiConfig */

/** Settings used when nothing overrides them. */
export const defaultConfig = Object.freeze({
  /** Name of this instance in logs and metrics (the StatefulSet ordinal: api-0, api-1, ...). */
  instanceId: 'api-local',
  /** Port the HTTP server listens on. */
  port: 8080,
  /**
   * Kestrel Pay API root. eu-west-1 until PAY-1162 (2026-04-28), when Kestrel
   * migrated the tessera-uk merchant account to eu-central-2.
   */
  kestrelBaseUrl: 'https://api.eu-central-2.kestrelpay.example/v2',
  /** Give up on a Kestrel call after this long (it then counts as failed: 502 to the caller). */
  kestrelTimeoutMs: 10 * SECOND,
  /** How long the answer to an Idempotency-Key is kept and replayed. */
  idempotencyTtlMs: 24 * HOUR,
  /** How long a webhook event id is remembered, to drop Kestrel's redeliveries. */
  webhookDedupeTtlMs: 7 * DAY,
  /** Retry-After (seconds) sent with 409 capture_in_progress. */
  retryAfterSeconds: 1,
});

/**
 * Builds the configuration from environment variables, falling back to
 * {@link defaultConfig} for anything unset.
 *
 * @param {Record<string, string | undefined>} [env] usually process.env
 * @returns {ApiConfig}
 * @throws {RangeError} when a numeric variable is not a positive integer
 */
export function loadConfig(env = {}) {
  return Object.freeze({
    ...defaultConfig,
    instanceId: env.INSTANCE_ID || defaultConfig.instanceId,
    port: positiveInt(env, 'PORT', defaultConfig.port),
    kestrelBaseUrl: env.KESTREL_BASE_URL || defaultConfig.kestrelBaseUrl,
    kestrelTimeoutMs: positiveInt(env, 'KESTREL_TIMEOUT_MS', defaultConfig.kestrelTimeoutMs),
    idempotencyTtlMs: positiveInt(env, 'IDEMPOTENCY_TTL_HOURS', defaultConfig.idempotencyTtlMs / HOUR) * HOUR,
    webhookDedupeTtlMs: positiveInt(env, 'WEBHOOK_DEDUPE_TTL_DAYS', defaultConfig.webhookDedupeTtlMs / DAY) * DAY,
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
