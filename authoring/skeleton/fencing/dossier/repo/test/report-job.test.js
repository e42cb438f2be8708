// The visible reproduction check: a worker freezes while it builds a report
// (a long garbage-collection pause), its lease runs out, and another worker
// builds and writes the report meanwhile.
//
// Time is a counter the test moves; blue's freeze is its read of the ledger,
// which the test holds until the other worker is done.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createLeaseService } from '../src/memory-leases.js';
import { createReportStorage } from '../src/memory-storage.js';
import { createWorker } from '../src/worker.js';

const roundTrip = () => new Promise((resolve) => setImmediate(resolve));

test('a worker that froze past its lease does not overwrite the newer report', async () => {
  let now = 0;
  const clock = { now: () => now };
  const leases = createLeaseService({ clock });
  const storage = createReportStorage();
  let thaw;
  const frozenStorage = { ...storage, read: (key) => new Promise((resolve) => { thaw = () => resolve(storage.read(key)); }) };
  const blue = createWorker({ workerId: 'blue', leases, storage: frozenStorage });
  const green = createWorker({ workerId: 'green', leases, storage });

  const blueRun = blue.handle({ day: '2026-05-01' });
  while (!thaw) await roundTrip();
  now += 30_000; // blue is frozen for 30 s: its lease runs out
  assert.equal(await green.handle({ day: '2026-05-01' }), 'written');
  now += 10;
  thaw();
  await blueRun;

  const report = JSON.parse(storage.peek('reports/2026-05-01'));
  assert.equal(report.builtBy, 'green', 'blue woke after its lease had run out and overwrote the newer report');
});
