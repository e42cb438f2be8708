/**
 * In-process counters, exported by the platform's metrics agent.
 *
 * Counter names are the labels the "shipment-notify" dashboard shows, so that
 * a number on the dashboard can be found in the code with a plain search:
 *
 *   deliveries            messages handed to a consumer (first deliveries and redeliveries)
 *   lock claims           deliveries whose worker took the job lock
 *   lock contention       deliveries that found the job lock held and were left for redelivery
 *   idempotency hits      deliveries whose job already had a sent-record
 *   notification writes   calls to the notification provider that were accepted
 *   sent-record writes    sent-records written after a notification
 *   handler errors        deliveries whose handling threw
 *
 * The queue keeps its own numbers (producer publishes, queue message ids, acks);
 * see DeliveryQueue#stats() in src/queue/delivery.js.
 */

/**
 * @typedef {object} Metrics
 * @property {(name: string, by?: number) => void} increment adds `by` (default 1) to a counter
 * @property {(name: string) => number} get current value of a counter (0 if never incremented)
 * @property {() => Record<string, number>} snapshot every counter, by name
 * @property {() => string} render the counters as "name = value" lines, sorted by name
 */

/**
 * Creates an empty set of counters.
 * @returns {Metrics}
 */
export function createMetrics() {
  const counters = new Map();
  return {
    increment(name, by = 1) {
      counters.set(name, (counters.get(name) ?? 0) + by);
    },
    get(name) {
      return counters.get(name) ?? 0;
    },
    snapshot() {
      return Object.fromEntries(counters);
    },
    render() {
      return [...counters.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, value]) => `${name} = ${value}`)
        .join('\n');
    },
  };
}
