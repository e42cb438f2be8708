/**
 * Merges a period's hourly usage segments into one rollup.
 *
 * Since BILL-2284 (2026-10-26) every segment of the period is held in memory
 * and summed in one pass, instead of one day at a time: a month-end
 * compaction of a large tenant now keeps a few GiB live.
 */

/**
 * @typedef {{ id: string, hour: string, calls: Record<string, number> }} Segment
 *   one hour of a tenant's usage: calls per meter ("api.requests", "api.egress_mb", …)
 * @typedef {{ tenant: string, period: string, segments: number, lastSegment: string | null,
 *   totals: Record<string, number>, compactedBy: string, compactedAt: string }} Rollup
 */

/**
 * @param {object} input
 * @param {string} input.tenant
 * @param {string} input.period
 * @param {Segment[]} input.segments every segment the index listed, in any order
 * @param {string} input.compactedBy the compactor's name
 * @param {number} input.compactedAt epoch ms
 * @returns {Rollup}
 */
export function mergeSegments({ tenant, period, segments, compactedBy, compactedAt }) {
  const ordered = [...segments].sort((a, b) => a.id.localeCompare(b.id));
  const totals = {};
  for (const segment of ordered) {
    for (const [meter, calls] of Object.entries(segment.calls)) {
      totals[meter] = (totals[meter] ?? 0) + calls;
    }
  }
  return {
    tenant,
    period,
    segments: ordered.length,
    lastSegment: ordered.at(-1)?.id ?? null,
    totals,
    compactedBy,
    compactedAt: new Date(compactedAt).toISOString(),
  };
}
