/**
 * Handles what reaches one gatekeeper process: the API edge's authentication
 * checks and the admin console's key changes. One process handles many at
 * once; blue and green are two such processes (deploy/gatekeeper.yaml).
 *
 * handle(message) takes
 *   { requestId, kind: 'request', keyId, scope }            an API request to check
 *   { requestId, kind: 'revoke', keyId }                    revoke a key
 *   { requestId, kind: 'set-scopes', keyId, scopes }        change what a key may do
 * and resolves to { requestId, status, ... }: 200, 401 or 403 for a request,
 * 200 with the key's new version for a change, and 503 when the cache or the
 * database failed (the edge and the console then retry).
 */

import { loadConfig } from './config.js';
import { silentLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { authorize } from './auth/authorize.js';
import { createKeyAdmin } from './keys/key-admin.js';
import { createKeyCache } from './keys/key-cache.js';

/**
 * Creates the handler of one process.
 * @param {object} deps
 * @param {string} deps.workerId the process's name, e.g. "blue"
 * @param {import('./store/remote-store.js').KeyValueStore} deps.store the shared cache
 * @param {import('./keys/keys-db.js').KeysDb} deps.db the keys database
 * @param {import('./clock.js').Clock} deps.clock
 * @param {import('./config.js').Config} [deps.config]
 * @param {import('./logger.js').Logger} [deps.log]
 * @param {ReturnType<typeof createMetrics>} [deps.metrics]
 */
export function createGatekeeper({ workerId, store, db, clock, config = loadConfig({}), log = silentLogger, metrics = createMetrics() }) {
  const logger = log.child({ worker: workerId });
  const keys = createKeyCache({ store, db, clock, ttlMs: config.keyCacheTtlMs, log: logger, metrics });
  const admin = createKeyAdmin({ db, keys, clock, log: logger, metrics });

  async function check({ requestId, keyId, scope }) {
    metrics.inc('auth_requests_total');
    const record = await keys.lookup(keyId);
    const { status, reason } = authorize(record, scope);
    metrics.inc(status === 200 ? 'auth_allowed_total' : 'auth_refused_total');
    logger.info({ request: requestId, key: keyId, scope, status, version: record?.version });
    return { requestId, status, reason };
  }

  async function change({ requestId, kind, keyId, scopes }) {
    const record = kind === 'revoke' ? await admin.revoke(keyId) : await admin.setScopes(keyId, scopes);
    logger.info({ request: requestId, key: keyId, change: kind, status: 200, version: record.version });
    return { requestId, status: 200, version: record.version };
  }

  /**
   * Handles one message (see the top of this file).
   * @param {{ requestId: string, kind: 'request' | 'revoke' | 'set-scopes', keyId: string, scope?: string, scopes?: string[] }} message
   */
  async function handle(message) {
    try {
      if (message.kind === 'request') return await check(message);
      if (message.kind === 'revoke' || message.kind === 'set-scopes') return await change(message);
      return { requestId: message.requestId, status: 400, reason: `unknown kind ${message.kind}` };
    } catch (error) {
      metrics.inc('errors_total');
      logger.warn({ request: message.requestId, key: message.keyId, status: 503, error: error.message });
      return { requestId: message.requestId, status: 503, reason: 'try again' };
    }
  }

  return { workerId, handle };
}
