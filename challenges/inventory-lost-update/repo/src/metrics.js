/**
 * Counters behind the "flash sale" dashboard.
 *
 * The names are the dashboard's labels, so a number seen there can be found
 * here with a plain search:
 *
 *   checkout requests     POST /checkouts handled by this pod
 *   stock reservations    units taken off a stock:<sku> counter
 *   stock releases        units put back (declined or failed charge)
 *   sold-out refusals     checkouts answered "sold out"
 *   charge attempts       calls to the PSP, retries included
 *   charge retries        calls repeated after a PSP time-out (same idempotency key)
 *   idempotent replays    PSP answers that replayed an earlier charge of the same key
 *   charges declined      charges the customer's bank refused
 *   orders confirmed      checkouts that ended with a paid order
 */

/**
 * @typedef {object} Metrics
 * @property {(name: string, by?: number) => void} increment
 * @property {(name: string) => number} get 0 for a counter never incremented
 * @property {() => string} render "name = value" lines, sorted by name
 */

/** @returns {Metrics} */
export function createMetrics() {
  const counts = new Map();
  return {
    increment(name, by = 1) {
      counts.set(name, (counts.get(name) ?? 0) + by);
    },
    get(name) {
      return counts.get(name) ?? 0;
    },
    render() {
      return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([n, v]) => `${n} = ${v}`).join('\n');
    },
  };
}
