/**
 * Worker settings.
 *
 * The defaults mirror deploy/outreach-worker.yaml, which is what production
 * runs. The deploy pipeline turns that file into environment variables that
 * loadConfig() reads; change both together.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** @typedef {typeof defaultConfig} WorkerConfig */

/**
 * Settings used when nothing overrides them.
 */
export const defaultConfig = Object.freeze({
  /** Campaign whose shards this deployment works. */
  campaignId: 'be-reengage-q2',
  /** Worker processes in the deployment; each shows up as worker=<name> in the logs. */
  workerNames: Object.freeze(['outreach-0', 'outreach-1']),
  /** Shards one process works at the same time (one polling slot each). */
  slotsPerWorker: 2,
  /**
   * Lease on a shard claim: a claim that is never released lapses this long
   * after it was taken, so a worker that dies cannot keep its shard forever.
   * Set in OUT-377 (2025-11) when a batch took about 13 minutes; raised to
   * 90 min in OUT-419 after batches reached 42 min (enrichment, OUT-412).
   * The runner never claims for less than 1.5x the shard's worst-case batch
   * (see leaseFor in src/shards/shard-runner.js), so this is a floor.
   */
  claimLeaseMs: 90 * MINUTE,
  /** How often an idle slot asks the shard board for work. */
  pollIntervalMs: 15 * SECOND,
  /** Give up on one enrichment lookup after this long and send without the personal opener. */
  enrichmentTimeoutMs: 8 * SECOND,
  /** Give up on one provider call after this long. */
  sendTimeoutMs: 10 * SECOND,
});

/**
 * Builds the configuration from environment variables, falling back to
 * {@link defaultConfig} for anything unset.
 *
 * @param {Record<string, string | undefined>} [env] usually process.env
 * @returns {WorkerConfig}
 * @throws {RangeError} when a numeric variable is not a positive integer
 */
export function loadConfig(env = {}) {
  return Object.freeze({
    ...defaultConfig,
    campaignId: env.CAMPAIGN_ID || defaultConfig.campaignId,
    slotsPerWorker: positiveInt(env, 'SLOTS_PER_WORKER', defaultConfig.slotsPerWorker),
    claimLeaseMs: positiveInt(env, 'CLAIM_LEASE_MINUTES', defaultConfig.claimLeaseMs / MINUTE) * MINUTE,
    pollIntervalMs: positiveInt(env, 'POLL_INTERVAL_SECONDS', defaultConfig.pollIntervalMs / SECOND) * SECOND,
    enrichmentTimeoutMs: positiveInt(env, 'ENRICHMENT_TIMEOUT_MS', defaultConfig.enrichmentTimeoutMs),
    sendTimeoutMs: positiveInt(env, 'SEND_TIMEOUT_MS', defaultConfig.sendTimeoutMs),
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
