/**
 * Key records in the shared cache, in front of the keys database. Every API
 * request looks its key up here; the admin console's changes clear the cached
 * record once the database has the new row.
 *
 * A record is cached under gk:key:<keyId> as the JSON of the row, for
 * KEY_CACHE_TTL_SECONDS (15 minutes in production).
 *
 * A lookup that misses may fill the key only under a fill lease: before it
 * reads the database it writes a lease of its own into the empty key, and it
 * swaps the row in only while the key still holds that lease. A change clears
 * the key after it is committed, which removes any lease taken before, so a
 * row read before the change can no longer be written back over it.
 */

import { randomUUID } from 'node:crypto';

/** What a fill lease's value starts with; a record is JSON and never does. */
const FILL_LEASE_PREFIX = 'lease:';

/**
 * How long a fill lease lasts: far longer than a lookup takes, short enough
 * that a process that died holding one keeps the key uncached only briefly.
 */
const FILL_LEASE_MS = 10_000;

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
    if (cached !== null && !cached.startsWith(FILL_LEASE_PREFIX)) {
      metrics.inc('key_cache_hits_total');
      return JSON.parse(cached);
    }
    metrics.inc('key_cache_misses_total');
    log.info({ key: keyId, cache: 'miss' });
    // Only a lookup that found the key empty takes a lease; one that found
    // another lookup's lease reads the row for its own request and fills nothing.
    const fillLease = `${FILL_LEASE_PREFIX}${randomUUID()}`;
    const ownsFill = cached === null && (await store.setIfAbsent(cacheKey, fillLease, { ttlMs: FILL_LEASE_MS }));
    const started = clock.now();
    const record = await db.findKey(keyId);
    metrics.inc('key_db_reads_total');
    log.info({ key: keyId, db: 'read', version: record?.version, ms: clock.now() - started });
    if (record === null || !ownsFill) return record;
    const swapped = await store.compareAndSet(cacheKey, fillLease, JSON.stringify(record), { ttlMs });
    if (swapped) metrics.inc('key_cache_fills_total');
    log.info({ key: keyId, cache: swapped ? 'fill' : 'fill-voided', version: record.version, status: record.status });
    if (!swapped) {
      // Our lease is gone: a change was committed and cleared the entry while
      // we read. The row we hold may be older than that change, but the
      // database has the changed row now: read it again and cache that one,
      // if nobody has filled the entry meanwhile, so the requests after the
      // change do not all miss.
      const fresh = await db.findKey(keyId);
      metrics.inc('key_db_reads_total');
      if (fresh !== null && (await store.compareAndSet(cacheKey, null, JSON.stringify(fresh), { ttlMs }))) {
        metrics.inc('key_cache_fills_total');
        log.info({ key: keyId, cache: 'refill', version: fresh.version, status: fresh.status });
      }
      return fresh ?? record;
    }
    return record;
  }

  /**
   * Clears the key's cached record after a change was committed, so that the
   * next request reads the new row.
   * @param {string} keyId
   */
  async function invalidate(keyId) {
    await store.delete(cacheKeyOf(keyId));
    metrics.inc('key_invalidations_total');
    log.info({ key: keyId, cache: 'invalidate' });
  }

  return { lookup, invalidate };
}
