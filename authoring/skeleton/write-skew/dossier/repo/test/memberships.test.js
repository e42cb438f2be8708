// The visible reproduction check: the two owners of a project both step down
// at the same time.
//
// Every database call is a round trip on virtual time (see
// test-support/virtual-time.js): one turn of the event loop, so while one
// worker waits the other runs, and the two interleave the same way on every
// run.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryDatabase } from '../src/memory-database.js';
import { createWorker } from '../src/worker.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

const owner = (user) => ({ id: `${user}@proj-1`, project: 'proj-1', user, role: 'owner' });

test('a project keeps an owner when its two owners step down at once', async () => {
  const { roundTrip } = createVirtualTime();
  const db = createMemoryDatabase({ tables: { members: [owner('alice'), owner('bob')] }, roundTrip });
  const blue = createWorker({ workerId: 'blue', db });
  const green = createWorker({ workerId: 'green', db });

  const outcomes = await Promise.all([
    blue.handle({ project: 'proj-1', user: 'alice' }),
    green.handle({ project: 'proj-1', user: 'bob' }),
  ]);

  const owners = db.rows('members').filter((m) => m.role === 'owner');
  assert.equal(owners.length, 1, `proj-1 has ${owners.length} owners left; outcomes: alice ${outcomes[0]}, bob ${outcomes[1]}`);
});
