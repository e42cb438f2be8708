// The visible reproduction check: the two owners of a project both step down
// at the same time.
//
// Every database call takes one turn of the event loop, like a network round
// trip, so while one worker waits the other runs, and the two interleave the
// same way on every run.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryDatabase } from '../src/memory-database.js';
import { createWorker } from '../src/worker.js';

const roundTrip = () => new Promise((resolve) => setImmediate(resolve));
const owner = (user) => ({ id: `${user}@proj-1`, project: 'proj-1', user, role: 'owner' });

test('a project keeps an owner when its two owners step down at once', async () => {
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
