/**
 * Key records in the shared cache, in front of the keys database. Every API
 * request looks its key up here; the admin console's changes clear the cached
 * record once the database has the new row.
 *
 * A record is cached under gk:key:<keyId> as the JSON of the row, for
 * KEY_CACHE_TTL_SECONDS (15 minutes in production).
 */

/** What a change leaves in the entry instead of deleting it: the prefix, then the kind of change. */
const TOMB = 'tombstone:';

/** The cache key of a key record. */
export const cacheKeyOf = (keyId) => `gk:key:${keyId}`;

/**
 * @param {object} deps
 * @param {import('../store/remote-store.js').KeyValueStore} deps.store the shared cache
 * @param {import('./keys-db.js').KeysDb} deps.db the keys database
 * @param {import('../clock.js').Clock} deps.clock times the database reads for the logs
 * @param {number} deps.ttlMs how long a record stays cached
 * @param {import('../logger.js').Logger} deps.log
 * @param {ReturnType<import('../metrics.js').createMetrics>} deps.metrics
 */
export function createKeyCache({ store, db, clock, ttlMs, log, metrics }) {
  /**
   * The key's record, from the cache or, on a miss, from the database, which
   * is then cached for the next requests. Null for a key that does not exist.
   * @param {string} keyId
   * @returns {Promise<import('./keys-db.js').KeyRecord | null>}
   */
  async function lookup(keyId) {
    const cacheKey = cacheKeyOf(keyId);
    const cached = await store.get(cacheKey);
    if (cached !== null && !cached.startsWith(TOMB)) {
      metrics.inc('key_cache_hits_total');
      return JSON.parse(cached);
    }
    metrics.inc('key_cache_misses_total');
    log.info({ key: keyId, cache: 'miss' });
    const started = clock.now();
    const record = await db.findKey(keyId);
    metrics.inc('key_db_reads_total');
    log.info({ key: keyId, db: 'read', version: record?.version, ms: clock.now() - started });
    if (record === null) return null;
    // Fill only if the entry still holds what we found: a change since then left its tombstone.
    if (!(await store.compareAndSet(cacheKey, cached, JSON.stringify(record), { ttlMs }))) return record;
    metrics.inc('key_cache_fills_total');
    log.info({ key: keyId, cache: 'fill', version: record.version, status: record.status });
    return record;
  }

  /**
   * Clears the key's cached record after a change was committed, so that the
   * next request reads the new row.
   * @param {string} keyId
   */
  async function invalidate(keyId, kind) {
    // A tombstone instead of a delete, so a lookup that found the entry empty cannot fill it any more.
    await store.set(cacheKeyOf(keyId), `${TOMB}${kind}`, { ttlMs });
    metrics.inc('key_invalidations_total');
    log.info({ key: keyId, cache: 'invalidate' });
  }

  return { lookup, invalidate };
}
