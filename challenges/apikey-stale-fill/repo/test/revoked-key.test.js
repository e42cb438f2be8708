// The visible reproduction: an API request with key_7Hq2 reaches blue while
// nothing is cached, and 5 ms later an admin revokes the key through green (as
// on 30 November at 09:41:07). Once the console has shown the revoke as saved,
// the next request with the key must be refused.
//
// Nothing here waits for real time (test-support/virtual-time.js): every cache
// and database call is a round trip during which the others run. The key
// lookup query takes 40 ms of virtual time and answers the row as it was when
// the query ran; the revoke's update takes 10 ms. The README's queries take 5
// to 400 ms.
//
// Both processes live in this one test process. In production blue and green
// are separate processes that share only the cache and the database.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createGatekeeper } from '../src/worker.js';
import { createMemoryStore } from '../src/store/memory-store.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

/** When the test starts: the revoke of 30 November. */
const START = Date.parse('2026-11-30T09:41:07.000Z');

/** How long the lookup query and the update take here. */
const FIND_MS = 40;
const UPDATE_MS = 10;

/** A fake keys database on virtual time, with one active key. */
function fakeKeysDb(time) {
  const rows = new Map([['key_7Hq2', { keyId: 'key_7Hq2', tenant: 'northwind', status: 'active', scopes: ['orders:read', 'orders:write'], version: 3, updatedAt: '2026-09-02T10:00:00.000Z' }]]);
  const log = [];
  return {
    log,
    async findKey(keyId) {
      await time.roundTrip();
      const row = rows.get(keyId);
      log.push(`${time.clock.now() - START} ms: read v${row?.version}`);
      await time.clock.sleep(FIND_MS);
      return row ? structuredClone(row) : null;
    },
    async updateKey(keyId, change) {
      await time.roundTrip();
      const row = { ...rows.get(keyId), ...change, version: rows.get(keyId).version + 1, updatedAt: new Date(time.clock.now()).toISOString() };
      rows.set(keyId, row);
      log.push(`${time.clock.now() - START} ms: update to v${row.version} (${row.status})`);
      await time.clock.sleep(UPDATE_MS);
      return structuredClone(row);
    },
  };
}

test('once a revoke is saved, the next request with the key is refused', async () => {
  const time = createVirtualTime({ start: START });
  const store = createMemoryStore({ clock: time.clock, roundTrip: time.roundTrip });
  const db = fakeKeysDb(time);
  const blue = createGatekeeper({ workerId: 'blue', store, db, clock: time.clock });
  const green = createGatekeeper({ workerId: 'green', store, db, clock: time.clock });

  const revoke = async () => {
    await time.clock.sleep(5);
    return green.handle({ requestId: 'adm-1', kind: 'revoke', keyId: 'key_7Hq2' });
  };
  const [before, revoked] = await Promise.all([
    blue.handle({ requestId: 'rq-1', kind: 'request', keyId: 'key_7Hq2', scope: 'orders:write' }),
    revoke(),
  ]);
  assert.equal(revoked.status, 200, `the revoke was answered ${JSON.stringify(revoked)}`);

  const after = await blue.handle({ requestId: 'rq-2', kind: 'request', keyId: 'key_7Hq2', scope: 'orders:write' });
  assert.equal(after.status, 401,
    `rq-2 came after the revoke was saved (rq-1, during the revoke, got ${before.status}) and was answered ${after.status}; `
    + `the database saw ${db.log.join(', ')}; the cache holds ${JSON.stringify(store.snapshot())}`);
});
