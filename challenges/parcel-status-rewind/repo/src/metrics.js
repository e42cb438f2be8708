/**
 * The counters behind the tracking dashboard, exposed by the poller's
 * /metrics endpoint in Prometheus' text format.
 */

/** Creates an empty set of counters. */
export function createMetrics() {
  /** @type {Map<string, number>} */
  const counters = new Map();
  return {
    /**
     * Adds `by` (1 by default) to a counter.
     * @param {string} name
     * @param {number} [by]
     */
    inc(name, by = 1) {
      counters.set(name, (counters.get(name) ?? 0) + by);
    },
    /** The counters as Prometheus text, one `name value` line each. */
    text() {
      return [...counters].sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => `${name} ${value}`).join('\n');
    },
  };
}
