/**
 * Counters and timings behind the "outreach" dashboard.
 *
 * Names are the labels the dashboard shows, so a number on a panel can be
 * found here with a plain search:
 *
 *   shard claims            claims this worker took
 *   shard claim conflicts   claims refused because another worker held the shard
 *   shards already sent     shards claimed but found complete, nothing sent
 *   e-mails sent            provider calls that were accepted
 *   enrichment fallbacks    candidates e-mailed without the personal opener
 *   batch duration          claim to release, per shard (timing)
 *   claim releases not owned  releases that found someone else's claim, or none
 */

/**
 * @typedef {object} Metrics
 * @property {(name: string, by?: number) => void} count adds `by` (default 1) to a counter
 * @property {(name: string, ms: number) => void} time records one duration
 * @property {(name: string) => number} value current value of a counter (0 if never counted)
 * @property {() => string} render every counter and timing as "name = value" lines
 */

/**
 * Creates an empty set of counters.
 * @returns {Metrics}
 */
export function createMetrics() {
  const counters = new Map();
  const timings = new Map();
  return {
    count(name, by = 1) {
      counters.set(name, (counters.get(name) ?? 0) + by);
    },
    time(name, ms) {
      const list = timings.get(name) ?? [];
      list.push(ms);
      timings.set(name, list);
    },
    value(name) {
      return counters.get(name) ?? 0;
    },
    render() {
      const lines = [...counters.entries()].map(([name, value]) => `${name} = ${value}`);
      for (const [name, list] of timings) {
        const max = Math.max(...list);
        lines.push(`${name} max = ${(max / 60_000).toFixed(1)} min`);
      }
      return lines.sort().join('\n');
    },
  };
}
