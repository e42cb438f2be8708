// The approvals test: reproduces RMA-20417 of 17 November, approved during the
// broker's failover and never refunded.
//
// Two workers share one returns database and one event bus, as in production.
// Every database call and every publish is a round trip on virtual time (see
// test-support/virtual-time.js), so the workers interleave the same way on
// every run. The queue below behaves as the README says: a command that
// throws is delivered again 5 s later, to the other worker, and the scheduler
// sends every worker a housekeeping tick every 10 s.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { createReturnsWorker } from '../src/worker.js';
import { createLogger } from '../src/logger.js';
import { createMemoryDb } from '../src/db/memory-db.js';
import { createMemoryBus } from '../src/bus/memory-bus.js';
import { createVirtualTime } from '../test-support/virtual-time.js';

const VISIBILITY_TIMEOUT_MS = 5_000;
const HOUSEKEEPING_EVERY_MS = 10_000;

function twoWorkers(returns) {
  const time = createVirtualTime({ start: Date.parse('2026-11-17T14:02:07.000Z') });
  const story = [];
  const db = createMemoryDb({ tables: { returns }, beforeCall: time.roundTrip });
  const bus = createMemoryBus({ beforeCall: time.roundTrip });
  const logger = createLogger({ clock: time.clock, write: (line) => story.push(line.slice(11, 23) + line.slice(24).replace(/ level=info| type=\S+/g, '')) });
  const worker = (workerId) => createReturnsWorker({ workerId, db, bus, clock: time.clock, logger });
  return { time, db, bus, story, workers: [worker('hx2lp'), worker('q7m4r')] };
}

/** Delivers a command as the queue does: again, to the next worker, each time it throws. */
async function deliver(env, command, attempts = 3) {
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const worker = env.workers[(attempt - 1) % env.workers.length];
    try {
      const answer = await worker.handle({ ...command, attempt });
      env.story.push(`${command.id} attempt ${attempt}: answered ${answer}`);
      return answer;
    } catch (error) {
      env.story.push(`${command.id} attempt ${attempt}: threw "${error.message}", delivered again in ${VISIBILITY_TIMEOUT_MS / 1000} s`);
      await env.time.clock.sleep(VISIBILITY_TIMEOUT_MS);
    }
  }
  return 'dead-lettered';
}

/** The housekeeping ticks of the next `runs` periods, on every worker; a tick that throws is simply followed by the next. */
async function housekeeping(env, runs = 2) {
  for (let run = 1; run <= runs; run += 1) {
    await env.time.clock.sleep(HOUSEKEEPING_EVERY_MS);
    const ticks = await Promise.allSettled(env.workers.map((w, i) => w.handle({ id: `tick-${run}-${i}`, type: 'housekeeping.tick' })));
    ticks.filter((t) => t.status === 'rejected').forEach((t) => env.story.push(`a housekeeping tick threw "${t.reason.message}"; the next one comes in ${HOUSEKEEPING_EVERY_MS / 1000} s`));
  }
}

const approvedEvents = (env, returnId) => env.bus.events.filter((e) => e.event.type === 'return.approved' && e.event.returnId === returnId);
const told = (env) => `\n\nWhat happened:\n  ${env.story.join('\n  ')}\n`;

describe('approvals', () => {
  test('a return approved while the broker refuses a publish is still announced to refunds', async () => {
    const env = twoWorkers([{ id: 'RMA-20417', orderId: 'FO-88213', customer: 'c-5521', amountCents: 12_900, status: 'requested' }]);
    env.bus.failNext('bus unavailable: the broker answered 503');
    const answer = await deliver(env, { id: 'cmd-5f1e', type: 'return.approve', returnId: 'RMA-20417', agent: 'wh-ines' });
    await housekeeping(env);

    const [ret] = env.db.dump('returns');
    assert.equal(answer, 'approved', `the agent's approval was answered ${answer}${told(env)}`);
    assert.equal(ret.status, 'approved');
    const events = approvedEvents(env, 'RMA-20417');
    assert.ok(events.length > 0,
      `RMA-20417 is approved in the returns database, but no return.approved event for it reached the bus: `
      + `the refunds service will never pay the customer back 129.00${told(env)}`);
    assert.equal(new Set(events.map((e) => e.event.id)).size, 1, `RMA-20417 was announced under several ids: refunds would pay it more than once${told(env)}`);
  });

  test('a return the customer cancelled is never announced', async () => {
    const env = twoWorkers([{ id: 'RMA-20418', orderId: 'FO-88240', customer: 'c-7710', amountCents: 4_500, status: 'requested' }]);
    const cancel = await deliver(env, { id: 'cmd-77a0', type: 'return.cancel', returnId: 'RMA-20418' });
    const approve = await deliver(env, { id: 'cmd-77a1', type: 'return.approve', returnId: 'RMA-20418', agent: 'wh-ines' });
    await housekeeping(env);

    assert.equal(cancel, 'cancelled', told(env));
    assert.equal(approve, 'not-approvable', told(env));
    assert.deepEqual(approvedEvents(env, 'RMA-20418'), [], `a cancelled return was announced to refunds${told(env)}`);
  });
});
