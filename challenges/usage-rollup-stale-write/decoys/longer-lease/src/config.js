/**
 * Compactor settings.
 *
 * The defaults mirror deploy/compactor.yaml, which is what production runs
 * with; the deploy pipeline renders that file into environment variables,
 * which loadConfig() reads. Keep the two in step.
 */

const SECOND = 1000;

/** @typedef {typeof defaultConfig} CompactorConfig */

/** Settings used when nothing overrides them. */
export const defaultConfig = Object.freeze({
  /** Queue the compactors consume. */
  queueName: 'compactions',
  /**
   * How long a received compaction stays invisible before the queue delivers
   * it again. Was 60 s until BILL-2291 (2026-10-28), so that month-end
   * compactions that fail are retried within seconds.
   */
  visibilityTimeoutMs: 5 * SECOND,
  /**
   * Lease on one tenant's rollup for one period. A compaction of a whole month
   * takes 1 to 3 s (p99 2.3 s); 60 s is more than twice the longest
   * garbage-collection pause ever logged (24.6 s, 2026-11-01).
   */
  leaseMs: 60 * SECOND,
});

/**
 * Builds the configuration from environment variables, falling back to
 * {@link defaultConfig} for anything unset.
 *
 * @param {Record<string, string | undefined>} [env] usually process.env
 * @returns {CompactorConfig}
 * @throws {RangeError} when a variable is set to something that is not a positive integer
 */
export function loadConfig(env = {}) {
  return Object.freeze({
    queueName: env.COMPACTION_QUEUE || defaultConfig.queueName,
    visibilityTimeoutMs: seconds(env, 'VISIBILITY_TIMEOUT_SECONDS', defaultConfig.visibilityTimeoutMs),
    leaseMs: seconds(env, 'ROLLUP_LEASE_SECONDS', defaultConfig.leaseMs),
  });
}

function seconds(env, name, fallbackMs) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallbackMs;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive whole number of seconds, got ${JSON.stringify(raw)}`);
  return value * SECOND;
}
