/**
 * Exchange rates, cached in the shared store in front of Ratewire.
 * Misses are coalesced across processes with a per-currency lease in the store.
 */

import { randomUUID } from 'node:crypto';
import { silentLogger } from '../logger.js';

export const rateKey = (currency) => `fx:rate:${currency}`;
export const leaseKey = (currency) => `fx:lease:${currency}`;

const POLL_MS = 50;          // store sized for one call per 50 ms per waiting request
const PAGE_WAIT_MS = 5000;   // pages wait at most 5 s
const LEASE_MS = 10_000;     // > 800 ms Ratewire + store round trips; << 1 min crash recovery

/** A lease in the shared store, owned by a unique token. */
class StoreLease {
  constructor(store, key, ttlMs) {
    this.store = store; this.key = key; this.ttlMs = ttlMs; this.token = randomUUID();
  }
  acquire() { return this.store.setIfAbsent(this.key, this.token, { ttlMs: this.ttlMs }); }
  release() { return this.store.compareAndDelete(this.key, this.token); }
}

export function createRateCache({ store, provider, clock, ttlMs, log = silentLogger, metrics }) {
  async function cached(currency) {
    const value = await store.get(rateKey(currency));
    return value === null ? null : JSON.parse(value);
  }

  /** this process's circuit breaker: after a Ratewire failure, don't ask again for a moment */
  const openUntil = new Map();
  const BREAKER_MS = 2_000;

  async function loadUnderLease(currency, lease) {
    try {
      // someone may have loaded it between our miss and our lease
      const again = await cached(currency);
      if (again) return again;
      metrics?.inc('ratewire_requests_total');
      const started = clock.now();
      const quote = await provider.latest(currency);
      await store.set(rateKey(currency), JSON.stringify(quote), { ttlMs });
      log.info({ currency, ratewire: 'ok', rate: quote.rate, ms: clock.now() - started });
      return quote;
    } catch (error) {
      metrics?.inc('ratewire_errors_total');
      openUntil.set(currency, clock.now() + BREAKER_MS);
      throw error;
    } finally {
      await lease.release().catch(() => {});
    }
  }

  return {
    async rateFor(currency) {
      const deadline = clock.now() + PAGE_WAIT_MS;
      let hit = await cached(currency);
      if (hit) {
        metrics?.inc('rate_cache_hits_total');
        return hit;
      }
      metrics?.inc('rate_cache_misses_total');
      log.info({ currency, cache: 'miss' });
      if ((openUntil.get(currency) ?? 0) > clock.now()) throw new Error('Ratewire failed recently; circuit open');
      for (;;) {
        const lease = new StoreLease(store, leaseKey(currency), LEASE_MS);
        if (await lease.acquire()) return loadUnderLease(currency, lease);
        // someone else loads it: wait for the rate, or for the lease to go
        if (clock.now() + POLL_MS > deadline) throw new Error('timed out waiting for the rate');
        await clock.sleep(POLL_MS);
        hit = await cached(currency);
        if (hit) return hit;
        if (clock.now() + POLL_MS > deadline) throw new Error('timed out waiting for the rate');
        await clock.sleep(POLL_MS);
      }
    },
  };
}
