/**
 * The counters behind the gatekeeper dashboard. Each process keeps its own; the
 * metrics agent scrapes /metrics and adds them up across processes.
 */

/** Every counter this service reports. */
export const COUNTERS = Object.freeze([
  'auth_requests_total',
  'auth_allowed_total',
  'auth_refused_total',
  'key_cache_hits_total',
  'key_cache_misses_total',
  'key_cache_fills_total',
  'key_db_reads_total',
  'key_changes_total',
  'key_invalidations_total',
  'errors_total',
]);

/**
 * Creates the counters of one process.
 * @returns {{ inc(name: string, by?: number): void, snapshot(): Record<string, number>, render(): string }}
 */
export function createMetrics() {
  const values = new Map(COUNTERS.map((name) => [name, 0]));
  return {
    inc(name, by = 1) {
      if (!values.has(name)) throw new RangeError(`unknown counter ${name}`);
      values.set(name, values.get(name) + by);
    },
    snapshot: () => Object.fromEntries(values),
    render: () => [...values].map(([name, value]) => `${name} ${value}`).join('\n') + '\n',
  };
}
