/**
 * Key records in the shared cache, in front of the keys database.
 *
 * The cache has a generation, gk:generation, a counter every change raises
 * (after its commit) in one INCRBY. A record is cached under the generation,
 * gk:key:<keyId>:<generation>. A lookup reads the generation first, then the
 * entry of that generation, and on a miss fills that same entry: a lookup that
 * read the row before a change fills an entry of a generation the change has
 * already left behind, which no request reads again.
 */

/** The cache generation: one counter for every key, raised by any change (namespace invalidation). */
export const generationKeyOf = () => 'gk:generation';

/** The cache key of a key record of one generation. */
export const cacheKeyOf = (keyId, generation = '0') => `gk:key:${keyId}:${generation}`;

export function createKeyCache({ store, db, clock, ttlMs, log, metrics }) {
  async function lookup(keyId) {
    const generation = (await store.get(generationKeyOf(keyId))) ?? '0';
    const cacheKey = cacheKeyOf(keyId, generation);
    const cached = await store.get(cacheKey);
    if (cached !== null) {
      metrics.inc('key_cache_hits_total');
      return JSON.parse(cached);
    }
    metrics.inc('key_cache_misses_total');
    log.info({ key: keyId, cache: 'miss', generation });
    const started = clock.now();
    const record = await db.findKey(keyId);
    metrics.inc('key_db_reads_total');
    log.info({ key: keyId, db: 'read', version: record?.version, ms: clock.now() - started });
    if (record === null) return null;
    await store.set(cacheKey, JSON.stringify(record), { ttlMs });
    metrics.inc('key_cache_fills_total');
    log.info({ key: keyId, cache: 'fill', generation, version: record.version, status: record.status });
    return record;
  }

  /** After a change was committed: move the key to a new generation. */
  async function invalidate(keyId) {
    const generation = await store.incrBy(generationKeyOf(keyId), 1);
    metrics.inc('key_invalidations_total');
    log.info({ key: keyId, cache: 'invalidate', generation });
  }

  return { lookup, invalidate };
}
