/**
 * The admin console's changes to API keys: revoking a key, and changing what
 * it may do. Each change is committed to the keys database first, then the
 * key's cached record is cleared; the console shows the change as saved only
 * once both are done, and retries a change that failed (a change applied
 * twice ends in the same row).
 */

/**
 * @param {object} deps
 * @param {import('./keys-db.js').KeysDb} deps.db
 * @param {ReturnType<import('./key-cache.js').createKeyCache>} deps.keys
 * @param {import('../clock.js').Clock} deps.clock times the changes for the logs
 * @param {import('../logger.js').Logger} deps.log
 * @param {ReturnType<import('../metrics.js').createMetrics>} deps.metrics
 */
export function createKeyAdmin({ db, keys, clock, log, metrics }) {
  /**
   * Applies one change and clears the cached record.
   * @param {string} keyId
   * @param {import('./keys-db.js').KeyChange} change
   * @returns {Promise<import('./keys-db.js').KeyRecord>} the new row
   */
  async function apply(keyId, change) {
    const started = clock.now();
    const record = await db.updateKey(keyId, change);
    metrics.inc('key_changes_total');
    log.info({ key: keyId, change: describe(change), version: record.version, ms: clock.now() - started });
    await keys.invalidate(keyId, change.status ? 'revoke' : 'set-scopes');
    return record;
  }

  return {
    /** Revokes a key: every request with it is refused from now on. */
    revoke: (keyId) => apply(keyId, { status: 'revoked' }),
    /** Replaces what a key may do. */
    setScopes: (keyId, scopes) => apply(keyId, { scopes: [...scopes].sort() }),
  };
}

function describe(change) {
  return change.status ? `status:${change.status}` : `scopes:${change.scopes.join(',')}`;
}
