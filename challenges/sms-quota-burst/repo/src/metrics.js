/**
 * Counters behind the "partner traffic" dashboard. The names are the
 * dashboard's labels, so a number seen there can be found here with a search:
 *
 *   sms requests          POST /v1/sms handled by this pod
 *   quota grants          requests the partner's quota let through
 *   quota refusals        requests answered 429
 *   carrier submissions   calls to Meridian, retries included
 *   carrier retries       calls repeated after a Meridian 503 (same client_ref)
 *   sms accepted          requests answered 202 with a carrier message id
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
