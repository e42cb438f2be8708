// The visible reproduction check: engineers of one team press "Go off call"
// at the same moment, each request on its own pod.
//
// Every database call is a round trip on virtual time (see
// test-support/virtual-time.js): one turn of the event loop, so while one pod
// waits for the database the other runs, and the two interleave the same way
// on every run.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createMemoryDatabase } from '../src/db/memory-database.js';
import { createRotaHandler } from '../src/rota/handler.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

const TEAM = 'payments';
const onCall = (user) => ({ id: `${user}@${TEAM}`, team: TEAM, user, on_call: true });

/** Two pods sharing one in-memory rota in which `users` are on call. */
function twoPods(...users) {
  const { clock, roundTrip } = createVirtualTime();
  const db = createMemoryDatabase({
    tables: { teams: [{ id: TEAM, name: 'Payments', channel: '#payments-oncall' }], rota: users.map(onCall) },
    roundTrip,
  });
  const pods = ['2xkqp', 'v8lmn'].map((podId) => createRotaHandler({ podId, db, clock }));
  const stillOnCall = () => db.rows('rota').filter((row) => row.team === TEAM && row.on_call).map((row) => row.user);
  return { pods, stillOnCall };
}

test('a team keeps someone on call when its two on-call engineers go off call at once', async () => {
  const { pods, stillOnCall } = twoPods('ana', 'ravi');

  const [ana, ravi] = await Promise.all([
    pods[0].handle({ requestId: 'req_1', team: TEAM, user: 'ana', via: 'slack-button' }),
    pods[1].handle({ requestId: 'req_2', team: TEAM, user: 'ravi', via: 'slack-button' }),
  ]);

  const left = stillOnCall();
  assert.ok(left.length >= 1,
    `nobody is on call for ${TEAM}: ana was answered ${JSON.stringify(ana)} and ravi ${JSON.stringify(ravi)}`);
  assert.deepEqual([ana, ravi].sort(), ['last-on-call', 'off-call'],
    `with ${left.join(', ')} still on call, one of the two should be off call and the other told they are the last`);
});

test('two of three on-call engineers can go off call at once', async () => {
  const { pods, stillOnCall } = twoPods('ana', 'ravi', 'jo');

  const outcomes = await Promise.all([
    pods[0].handle({ requestId: 'req_3', team: TEAM, user: 'ana', via: 'slack-button' }),
    pods[1].handle({ requestId: 'req_4', team: TEAM, user: 'ravi', via: 'slack-button' }),
  ]);

  assert.deepEqual(outcomes, ['off-call', 'off-call'], 'jo stays on call, so both ana and ravi may go off call');
  assert.deepEqual(stillOnCall(), ['jo']);
});
