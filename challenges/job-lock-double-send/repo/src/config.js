/**
 * Worker settings.
 *
 * The defaults below mirror deploy/worker.yaml, which is what production runs
 * with. The deploy pipeline renders that file into environment variables, which
 * loadConfig() reads; keep the two in sync when you change either.
 */

const SECOND = 1000;

/** @typedef {typeof defaultConfig} WorkerConfig */

/**
 * Settings used when nothing overrides them.
 */
export const defaultConfig = Object.freeze({
  /** Queue the workers consume. */
  queueName: 'shipment-notifications',
  /** Number of worker processes (slots) consuming the queue. Was 1 until CHG-2260 (2026-03-09). */
  concurrency: 2,
  /** Names given to the slots, in order; they show up as worker=<name> in logs. */
  workerNames: Object.freeze(['blue', 'green', 'amber', 'violet']),
  /**
   * How long a received message stays invisible to other workers before it is
   * delivered again. Was 60 s until CHG-2274 (2026-03-11): retries after a
   * worker dies now start within seconds.
   */
  visibilityTimeoutMs: 5 * SECOND,
  /** Lease on a job lock: a lock nobody releases disappears after this long. */
  lockTtlMs: 30 * SECOND,
  /** How long an idle slot waits before polling the queue again. */
  pollIntervalMs: 250,
});

/**
 * Builds the worker configuration from environment variables, falling back to
 * {@link defaultConfig} for anything unset.
 *
 * @param {Record<string, string | undefined>} [env] usually process.env
 * @returns {WorkerConfig}
 * @throws {RangeError} when a variable is set to something that is not a positive integer
 */
export function loadConfig(env = {}) {
  return Object.freeze({
    ...defaultConfig,
    queueName: env.QUEUE_NAME || defaultConfig.queueName,
    concurrency: positiveInt(env, 'WORKER_CONCURRENCY', defaultConfig.concurrency),
    visibilityTimeoutMs: positiveInt(env, 'VISIBILITY_TIMEOUT_SECONDS', defaultConfig.visibilityTimeoutMs / SECOND) * SECOND,
    lockTtlMs: positiveInt(env, 'LOCK_TTL_SECONDS', defaultConfig.lockTtlMs / SECOND) * SECOND,
    pollIntervalMs: positiveInt(env, 'POLL_INTERVAL_MS', defaultConfig.pollIntervalMs),
  });
}

/**
 * Returns the slot names for a given concurrency: the configured names first,
 * then worker-5, worker-6, … if there are more slots than names.
 *
 * @param {WorkerConfig} config
 * @returns {string[]}
 */
export function slotNames(config) {
  return Array.from({ length: config.concurrency }, (_, i) => config.workerNames[i] ?? `worker-${i + 1}`);
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
