/**
 * Settings of one tracker process, from the environment, with the defaults
 * production runs with (see deploy/tracker.yaml).
 */

/**
 * @typedef {object} Config
 * @property {'debug' | 'info' | 'warn' | 'error'} logLevel
 * @property {string} storeUrl the tracking store's command gateway
 * @property {string} queueUrl the tracking-events queue
 * @property {number} concurrency how many messages one process handles at once
 * @property {number} visibilityTimeoutMs how long a received message stays hidden from other receivers
 * @property {number} metricsPort where /metrics is served
 */

/**
 * Reads the settings from an environment (process.env by default).
 * @param {Record<string, string | undefined>} [env]
 * @returns {Config}
 */
export function loadConfig(env = process.env) {
  return Object.freeze({
    logLevel: env.LOG_LEVEL ?? 'info',
    storeUrl: env.STORE_URL ?? 'http://localhost:7379/v1/command',
    queueUrl: env.QUEUE_URL ?? 'http://localhost:9324/queues/tracking-events',
    concurrency: integer(env.CONCURRENCY, 8),
    visibilityTimeoutMs: integer(env.VISIBILITY_TIMEOUT_SECONDS, 30) * 1000,
    metricsPort: integer(env.METRICS_PORT, 9090),
  });
}

function integer(value, fallback) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new RangeError(`expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
