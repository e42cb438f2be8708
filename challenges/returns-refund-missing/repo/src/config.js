/**
 * Settings and their defaults; deploy/returns-worker.yaml sets them in
 * production through the environment.
 */

/** @param {Record<string, string | undefined>} env */
export function loadConfig(env = {}) {
  const number = (name, fallback) => (env[name] === undefined ? fallback : Number(env[name]));
  return Object.freeze({
    workerId: env.HOSTNAME ?? 'returns-worker-local',
    logLevel: env.LOG_LEVEL ?? 'info',
    dbUrl: env.RETURNS_DB_URL ?? 'http://localhost:7400',
    dbToken: env.RETURNS_DB_TOKEN ?? '',
    dbTimeoutMs: number('RETURNS_DB_TIMEOUT_MS', 2_000),
    busUrl: env.EVENT_BUS_URL ?? 'http://localhost:7500',
    busToken: env.EVENT_BUS_TOKEN ?? '',
    // 2026-11-03: 10 s -> 2 s, so that an approval never outlasts the console's 5 s wait (RET-388).
    busPublishTimeoutMs: number('EVENT_BUS_PUBLISH_TIMEOUT_MS', 2_000),
    // The queue hides a command this long after handing it out; unanswered, it is delivered again.
    visibilityTimeoutMs: number('COMMAND_VISIBILITY_TIMEOUT_MS', 5_000),
    housekeepingEveryMs: number('HOUSEKEEPING_EVERY_MS', 10_000),
  });
}
