// The visible reproduction check: a worker freezes while it builds a report
// (a long garbage-collection pause), its lease runs out, and another worker
// builds and writes the report meanwhile.
//
// Nothing here depends on real time (see test-support/virtual-time.js). The
// lease runs out on the virtual clock; blue's freeze is its read of the
// ledger, which takes 30 s of virtual time; green, answered 'busy' at first,
// gets the job again 2 s later, as the README says.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createLeaseService } from '../src/memory-leases.js';
import { createReportStorage } from '../src/memory-storage.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

/** How long blue stays frozen: the longest pause of the README. */
const FREEZE_MS = 30_000;

/** How long the queue waits before it delivers a job again after 'busy' (README). */
const REDELIVERY_MS = 2_000;

/** Deliveries to green the queue makes at most in this test. */
const MAX_ATTEMPTS = 5;

test('a worker that froze past its lease does not overwrite the newer report', async () => {
  const time = createVirtualTime();
  const leases = createLeaseService({ clock: time.clock });
  const storage = createReportStorage();
  const frozenStorage = {
    ...storage,
    async read(key) {
      await time.clock.sleep(FREEZE_MS);
      return storage.read(key);
    },
  };
  const blue = createWorker({ workerId: 'blue', leases, storage: frozenStorage });
  const green = createWorker({ workerId: 'green', leases, storage });

  /** Green's deliveries of the job: at once, then again after each 'busy'. */
  async function greenDeliveries() {
    for (let attempt = 1; ; attempt++) {
      const outcome = await green.handle({ day: '2026-05-01' });
      if (outcome !== 'busy' || attempt === MAX_ATTEMPTS) return outcome;
      await time.clock.sleep(REDELIVERY_MS);
    }
  }

  const outcomes = await Promise.all([blue.handle({ day: '2026-05-01' }), greenDeliveries()]);

  const report = JSON.parse(storage.peek('reports/2026-05-01'));
  assert.equal(report.builtBy, 'green',
    `blue woke after its lease had run out and overwrote the newer report; outcomes: blue=${outcomes[0]}, green=${outcomes[1]}`);
});
