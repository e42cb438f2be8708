/**
 * Counters behind the rota dashboard, scraped as Prometheus text from
 * GET /metrics.
 *
 * @typedef {object} Metrics
 * @property {(name: string, by?: number) => void} count adds `by` (default 1) to a counter
 * @property {() => string} text every counter, one `name value` line each
 */

/** @returns {Metrics} */
export function createMetrics() {
  const counters = new Map();
  return {
    count(name, by = 1) {
      counters.set(name, (counters.get(name) ?? 0) + by);
    },
    text() {
      return [...counters].map(([name, value]) => `rota_${name} ${value}`).join('\n');
    },
  };
}

/** Counts nothing. The default wherever metrics are optional. */
export const noMetrics = Object.freeze({ count() {}, text: () => '' });
