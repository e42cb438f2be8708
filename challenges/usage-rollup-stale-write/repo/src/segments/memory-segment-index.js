/**
 * The segment index's interface, and an in-memory implementation for tests
 * and local runs. Ingestion writes one segment per tenant per hour, usually a
 * few minutes after the hour ends (the last hour of a month lands after the
 * month has closed); the index lists the segments that have landed.
 *
 * @typedef {object} SegmentIndex
 * @property {(tenant: string, period: string) => Promise<import('../compaction/merge.js').Segment[]>} list
 *   every segment of the tenant's period that has landed so far
 */

/**
 * @param {object} options
 * @param {{ now(): number }} options.clock
 * @param {{ tenant: string, period: string, landedAt: number, segment: import('../compaction/merge.js').Segment }[]} options.segments
 *   the segments, each with the time it lands
 * @returns {SegmentIndex}
 */
export function createMemorySegmentIndex({ clock, segments }) {
  return {
    async list(tenant, period) {
      return segments
        .filter((s) => s.tenant === tenant && s.period === period && s.landedAt <= clock.now())
        .map((s) => structuredClone(s.segment));
    },
  };
}
