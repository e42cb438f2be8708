// The world of the usage-rollup-stale-write suite: tnt_4417's October, its
// segments (two in the index from the start, the last hour's landing one
// second in), the segment index that lists them, and the rollups made of them.

export const TENANT = 'tnt_4417';
export const PERIOD = '2026-10';
export const ROLLUP = `rollups/${PERIOD}/${TENANT}.json`;
export const LEASE = `rollup:${PERIOD}:${TENANT}`;
export const JOB = `cmp-${TENANT}-${PERIOD}`;

/** When the month's last segment lands in the index, in ms. */
export const LATE_SEGMENT_AT = 1_000;

/** The month's hourly segments, and when each lands in the index, in ms. */
export const SEGMENTS = [
  { landedAt: 0, segment: { id: 'seg-0742', hour: '2026-10-31T21:00Z', calls: { 'api.requests': 61_204 } } },
  { landedAt: 0, segment: { id: 'seg-0743', hour: '2026-10-31T22:00Z', calls: { 'api.requests': 59_870 } } },
  { landedAt: LATE_SEGMENT_AT, segment: { id: 'seg-0744', hour: '2026-10-31T23:00Z', calls: { 'api.requests': 187_538 } } },
];

/**
 * The segment index: lists the segments of a period that have landed by the
 * time the call arrives, and remembers who listed when.
 */
export function segmentIndex(latencyMs) {
  return {
    state: () => ({ listings: [] }),
    methods: {
      list(state, [tenant, period], call) {
        if (tenant !== TENANT || period !== PERIOD) return [];
        state.listings.push({ worker: call.worker, request: call.request, at: call.at });
        return SEGMENTS.filter((s) => s.landedAt <= call.at).map((s) => structuredClone(s.segment));
      },
    },
    latencyMs,
    // A listing in flight when the last segment lands may have been made
    // before it, and answer after.
    reads: ['list'],
    changesAt: [LATE_SEGMENT_AT],
    describe: (method, args, reply) => `${reply.length} segments`,
  };
}

/** How many segments a stored rollup body counts, or undefined when it cannot be read. */
export function segmentCount(body) {
  try {
    const n = JSON.parse(body)?.segments;
    return Number.isInteger(n) ? n : undefined;
  } catch {
    return undefined;
  }
}

/** How many segments a stored rollup body counts, for messages. */
export function segmentsIn(body) {
  const n = segmentCount(body);
  return n === undefined ? 'an unreadable rollup' : `${n} segment${n === 1 ? '' : 's'}`;
}

/** The month's rollup as compactor-a wrote it an hour before, when only its first segment had landed. */
const EARLIER_ROLLUP = JSON.stringify({
  tenant: TENANT, period: PERIOD, segments: 1, lastSegment: SEGMENTS[0].segment.id,
  totals: SEGMENTS[0].segment.calls, compactedBy: 'compactor-a', compactedAt: '2026-10-31T22:05:00.000Z',
});

/** A rollup store that holds the earlier rollup from the start. */
export function storeWithEarlierRollup(store) {
  return { ...store, state: () => ({ ...store.state(), data: { [ROLLUP]: EARLIER_ROLLUP } }) };
}
