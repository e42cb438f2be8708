/**
 * Settings, from the environment, with the defaults deploy/rota.yaml uses.
 */

/**
 * @param {Record<string, string | undefined>} env
 * @returns {{ port: number, sqlGatewayUrl: string, database: string, statementTimeoutMs: number, logLevel: string, podId: string }}
 */
export function loadConfig(env) {
  const number = (name, fallback) => {
    const value = env[name] === undefined ? fallback : Number(env[name]);
    if (!Number.isInteger(value) || value <= 0) throw new RangeError(`${name} must be a positive integer, got ${JSON.stringify(env[name])}`);
    return value;
  };
  return {
    port: number('PORT', 8080),
    sqlGatewayUrl: env.SQL_GATEWAY_URL ?? 'http://sql-gateway.platform:8080',
    database: env.ROTA_DATABASE ?? 'rota',
    // The gateway answers within 50 ms (its SLO); a statement that takes 2 s is a stuck connection.
    statementTimeoutMs: number('STATEMENT_TIMEOUT_MS', 2_000),
    logLevel: env.LOG_LEVEL ?? 'info',
    podId: (env.HOSTNAME ?? 'local').split('-').at(-1),
  };
}
