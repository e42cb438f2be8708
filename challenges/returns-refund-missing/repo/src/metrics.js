/**
 * The worker's counters, flushed to the metrics pipeline by housekeeping
 * (src/returns/housekeeping.js). Counters live in the worker's memory and
 * restart at zero with the process; the pipeline sums them per worker.
 *
 * @typedef {object} Metrics
 * @property {(name: string, by?: number) => void} increment
 * @property {() => Record<string, number>} flush the counts since the last flush
 */

/** @returns {Metrics} */
export function createMetrics() {
  let counts = {};
  return {
    increment(name, by = 1) {
      counts[name] = (counts[name] ?? 0) + by;
    },
    flush() {
      const flushed = counts;
      counts = {};
      return flushed;
    },
  };
}
