// The visible reproduction: compactor-a freezes in the middle of a month-end
// compaction (the 24.6 s garbage-collection pause of the incident), its lease
// runs out, the queue hands the same request to compactor-b, and a segment
// that landed late is in compactor-b's rollup but not in compactor-a's.
//
// Nothing here depends on real time (see test-support/virtual-time.js): every
// service call is one round trip, the lease runs out on the virtual clock,
// compactor-a's freeze is 30 s of virtual time right after its listing came
// back, and the queue delivers the request to compactor-b again every 5 s
// while it answers 'busy', as the README says.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { rollupKey } from '../src/compaction/keys.js';
import { defaultConfig } from '../src/config.js';
import { createMemoryLeases } from '../src/leases/memory-leases.js';
import { createMemoryRollupStore } from '../src/rollups/memory-rollup-store.js';
import { createMemorySegmentIndex } from '../src/segments/memory-segment-index.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

const TENANT = 'tnt_4417';
const PERIOD = '2026-10';
const START = Date.parse('2026-11-01T00:13:58.000Z');

/** How long compactor-a stays frozen: longer than its lease, as in the incident. */
const FREEZE_MS = 30_000;

/** Deliveries the queue makes to compactor-b at most in this test. */
const MAX_ATTEMPTS = 10;

/** The last hours of October; the very last lands 2 s after compactor-a listed. */
function segments() {
  const hour = (n, landedAt, requests) => ({
    tenant: TENANT,
    period: PERIOD,
    landedAt,
    segment: { id: `seg-0${n}`, hour: `2026-10-31T${String(n - 721).padStart(2, '0')}:00Z`, calls: { 'api.requests': requests } },
  });
  return [hour(742, START - 3_600_000, 61_204), hour(743, START - 60_000, 59_870), hour(744, START + 2_000, 187_538)];
}

/** Wraps every method of a service so that each call is one round trip. */
function overTheWire(time, service) {
  return Object.fromEntries(Object.entries(service).map(([name, method]) => [name, async (...args) => {
    await time.roundTrip();
    return method(...args);
  }]));
}

test('a compactor that froze past its lease does not overwrite the newer rollup', async () => {
  const time = createVirtualTime({ start: START });
  const leases = overTheWire(time, createMemoryLeases({ clock: time.clock }));
  const index = createMemorySegmentIndex({ clock: time.clock, segments: segments() });
  const store = createMemoryRollupStore();
  const rollups = overTheWire(time, { read: store.read, write: store.write });

  const frozenIndex = {
    async list(...args) {
      const listed = await overTheWire(time, index).list(...args);
      await time.clock.sleep(FREEZE_MS); // the garbage-collection pause, while merging
      return listed;
    },
  };
  const a = createWorker({ workerId: 'compactor-a', leases, segments: frozenIndex, rollups, clock: time.clock });
  const b = createWorker({ workerId: 'compactor-b', leases, segments: overTheWire(time, index), rollups, clock: time.clock });
  /** The queue's message: one id across its deliveries, attempts numbered in delivery order. */
  const request = (attempt) => ({ messageId: `cmp-${TENANT}-${PERIOD}`, attempt, tenant: TENANT, period: PERIOD });

  /** compactor-b's deliveries: 1 s in, then again after each 'busy'. */
  async function deliveriesToB() {
    await time.clock.sleep(1_000);
    for (let attempt = 2; ; attempt++) {
      const outcome = await b.handle(request(attempt));
      if (outcome !== 'busy' || attempt > MAX_ATTEMPTS) return outcome;
      await time.clock.sleep(defaultConfig.visibilityTimeoutMs);
    }
  }

  const [outcomeA, outcomeB] = await Promise.all([a.handle(request(1)), deliveriesToB()]);

  const rollup = JSON.parse(store.peek(rollupKey(TENANT, PERIOD)));
  assert.equal(rollup.segments, 3,
    `the stored rollup counts ${rollup.segments} segments (last ${rollup.lastSegment}, written by ${rollup.compactedBy}), `
    + `but compactor-b had compacted all 3, seg-0744 included; outcomes: compactor-a=${outcomeA}, compactor-b=${outcomeB}`);
  assert.equal(rollup.totals['api.requests'], 61_204 + 59_870 + 187_538);
});
