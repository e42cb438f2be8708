/**
 * In-process counters and latency summaries, scraped by the metrics agent.
 *
 * The names are the labels on the "payments / captures" dashboard, so a number
 * on the dashboard can be found here with a plain search:
 *
 *   capture requests           POST /v1/payments/{id}/capture handled (every attempt)
 *   idempotency replays        requests answered from a stored idempotency record
 *   kestrel capture calls      capture calls sent to Kestrel Pay
 *   kestrel capture errors     capture calls that failed or timed out (502 to the caller)
 *   kestrel capture latency    summary, ms, of every capture call
 *   webhook events             Kestrel webhook events accepted
 *   webhook duplicates         Kestrel webhook redeliveries dropped
 */

/**
 * @typedef {object} Metrics
 * @property {(name: string, by?: number) => void} increment adds to a counter
 * @property {(name: string, value: number) => void} observe records one sample of a summary
 * @property {(name: string) => number} get a counter's value (0 if never incremented)
 * @property {(name: string, p: number) => number | null} percentile the p-th percentile (0-100) of a summary
 * @property {() => string} render every counter and summary as "name = value" lines
 */

/** Samples kept per summary; older ones are dropped first. */
const MAX_SAMPLES = 10_000;

/** @returns {Metrics} */
export function createMetrics() {
  const counters = new Map();
  const summaries = new Map();

  const percentile = (name, p) => {
    const samples = summaries.get(name);
    if (!samples || samples.length === 0) return null;
    const sorted = [...samples].sort((a, b) => a - b);
    const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
    return sorted[rank];
  };

  return {
    increment(name, by = 1) {
      counters.set(name, (counters.get(name) ?? 0) + by);
    },
    observe(name, value) {
      const samples = summaries.get(name) ?? [];
      samples.push(value);
      if (samples.length > MAX_SAMPLES) samples.shift();
      summaries.set(name, samples);
    },
    get(name) {
      return counters.get(name) ?? 0;
    },
    percentile,
    render() {
      const lines = [...counters.entries()].map(([name, value]) => `${name} = ${value}`);
      for (const name of summaries.keys()) {
        for (const p of [50, 95, 99]) lines.push(`${name} p${p} = ${percentile(name, p)} ms`);
      }
      return lines.sort().join('\n');
    },
  };
}
