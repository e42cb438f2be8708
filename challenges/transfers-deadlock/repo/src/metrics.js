/**
 * In-process counters and timings, scraped by the platform's metrics agent.
 *
 * The names are the labels on the "ledger-transfers" dashboard, so a number on
 * the dashboard can be found here with a plain search:
 *
 *   transfer requests      POST /v1/transfers and /send-back calls that reached the service
 *   transfers posted       transfers applied to both balances and posted to the journal
 *   transfers declined     refused for insufficient funds
 *   transfer duplicates    retries of a transfer that had already been posted
 *   lock acquisitions      account locks granted to this pod's requests
 *   lock wait              time from asking for an account lock to getting it (timing)
 *   fraud screen           time spent in fraud screening before the ledger (timing)
 */

/**
 * @typedef {object} Metrics
 * @property {(name: string, by?: number) => void} increment
 * @property {(name: string, ms: number) => void} observe records one timing
 * @property {(name: string) => number} count
 * @property {() => string} render counters, then timings as count/max, one `name = value` per line
 */

/** @returns {Metrics} */
export function createMetrics() {
  const counters = new Map();
  const timings = new Map();
  return {
    increment(name, by = 1) {
      counters.set(name, (counters.get(name) ?? 0) + by);
    },
    observe(name, ms) {
      const t = timings.get(name) ?? { count: 0, max: 0 };
      t.count += 1;
      t.max = Math.max(t.max, ms);
      timings.set(name, t);
    },
    count(name) {
      return counters.get(name) ?? 0;
    },
    render() {
      const lines = [...counters].sort(([a], [b]) => a.localeCompare(b)).map(([n, v]) => `${n} = ${v}`);
      for (const [name, t] of [...timings].sort(([a], [b]) => a.localeCompare(b))) {
        lines.push(`${name} count = ${t.count}`, `${name} max = ${t.max} ms`);
      }
      return lines.join('\n');
    },
  };
}
