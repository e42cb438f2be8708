/**
 * Key records in the shared cache, in front of the keys database.
 *
 * gk:key:<keyId> holds { epoch, record }; gk:epoch:<keyId> counts the key's
 * changes. A lookup notes the epoch before it reads the row and stamps the
 * entry with it; an entry is used only while its stamp is the current epoch,
 * so a row read before a change is not served once the change bumped the epoch.
 */

export const cacheKeyOf = (keyId) => `gk:key:${keyId}`;
const epochKeyOf = (keyId) => `gk:epoch:${keyId}`;

export function createKeyCache({ store, db, clock, ttlMs, log, metrics }) {
  async function lookup(keyId) {
    const cacheKey = cacheKeyOf(keyId);
    const epoch = Number((await store.get(epochKeyOf(keyId))) ?? 0);
    const cached = await store.get(cacheKey);
    if (cached !== null) {
      const entry = JSON.parse(cached);
      if (entry.epoch === epoch) {
        metrics.inc('key_cache_hits_total');
        return entry.record;
      }
    }
    metrics.inc('key_cache_misses_total');
    log.info({ key: keyId, cache: 'miss', epoch });
    const started = clock.now();
    const record = await db.findKey(keyId);
    metrics.inc('key_db_reads_total');
    log.info({ key: keyId, db: 'read', version: record?.version, ms: clock.now() - started });
    if (record === null) return null;
    await store.set(cacheKey, JSON.stringify({ epoch, record }), { ttlMs });
    metrics.inc('key_cache_fills_total');
    log.info({ key: keyId, cache: 'fill', epoch, version: record.version, status: record.status });
    return record;
  }

  /**
   * After a change is committed: clear the entry, then bump the epoch so that
   * a fill already in flight is ignored too. The delete is what makes the next
   * request read the new row, so a failed bump is logged, not turned into a
   * failed change (the database already has it).
   */
  async function invalidate(keyId) {
    await store.delete(cacheKeyOf(keyId));
    try {
      await store.incrBy(epochKeyOf(keyId), 1);
    } catch (error) {
      log.warn({ key: keyId, cache: 'epoch-bump-failed', error: error.message });
    }
    metrics.inc('key_invalidations_total');
    log.info({ key: keyId, cache: 'invalidate' });
  }

  return { lookup, invalidate };
}
