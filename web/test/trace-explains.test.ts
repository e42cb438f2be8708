import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TraceStep } from '../src/lib/types';
import { parseSite, siteName } from '../src/run/source-site';
import { layoutTimeline } from '../src/run/timeline-layout';
import { overlaps, stepKind, traceModel } from '../src/run/trace-model';
import { storyOf } from '../src/run/trace-story';
import { waitNote } from '../src/run/trace-table';
import { leaseRanOutFrozen, leaseRanOutInFlight, leaseRanOutNothingBroke } from './lease-traces';

const step = (n: number, at: number, worker: string, operation: string, key: string, result: string, more: Partial<TraceStep> = {}): TraceStep =>
  ({ step: n, at, worker, operation, key, result, ...more });

test('steps are classified by the remote they went to, old traces by their operation', () => {
  assert.equal(stepKind('get', 'store'), 'store');
  assert.equal(stepKind('acquire', 'locks'), 'store');
  assert.equal(stepKind('get', 'enrichment'), 'effect', 'a stateful service is not the store, whatever its methods are called');
  assert.equal(stepKind('reserve', 'store'), 'store');
  assert.equal(stepKind('expired'), 'expiry');
  assert.equal(stepKind('pause'), 'freeze');
  assert.equal(stepKind('stall'), 'freeze');
  assert.equal(stepKind('wake'), 'freeze');
  assert.equal(stepKind('random'), 'lifecycle', 'a draw the explorer moved is a note on its worker, not a call');
  assert.equal(stepKind('get'), 'store');
  assert.equal(stepKind('send'), 'effect');
});

test('issued sets when a call left; the in-flight note is only a fallback', () => {
  const m = traceModel([
    step(1, 0, 'blue', 'receive', 'job-7', 'delivery 1', { request: 'job-7 #1' }),
    step(2, 0, 'green', 'receive', 'job-7', 'delivery 1', { request: 'job-7 #1' }),
    step(3, 0, 'green', 'get', 'lock:job-7', 'null', { service: 'store', request: 'job-7 #1' }),
    step(4, 800, 'green', 'get', 'lock:job-7', 'null', { service: 'store', request: 'job-7 #1' }),
    step(5, 1200, 'blue', 'set', 'lock:job-7', 'wrote "blue" (in flight since 300 ms)', { service: 'store', request: 'job-7 #1', issued: 800 }),
    step(6, 1300, 'green', 'set', 'lock:job-7', 'wrote "green" (in flight since 800 ms)', { service: 'store', request: 'job-7 #1' }),
  ]);
  const blueSet = m.steps[4];
  assert.equal(blueSet.outcome, 'wrote "blue"');
  assert.deepEqual(blueSet.wait, { kind: 'call', after: 0, from: 3, since: 800 }, 'issued wins over the note, and the call left when the clock reached 800 ms');
  assert.equal(waitNote(blueSet, m), 'in flight since 800 ms, issued after step 3');
  assert.deepEqual(m.steps[5].wait, { kind: 'call', after: 3, from: 4, since: 800 }, 'an old trace still gets the note');
  assert.deepEqual(overlaps(m).map((o) => `${o.call.step}<-${o.during.step}`), ['5<-4', '6<-5'],
    "green's read at step 3 came before blue's set was issued, so it is not an overlap");
});

test('a worker handling two requests at once: each call waits after its own request', () => {
  const m = traceModel([
    step(1, 0, 'api-0', 'receive', 'pay-1', 'delivery 1', { request: 'pay-1 #1' }),
    step(2, 0, 'api-0', 'receive', 'pay-1', 'delivery 2', { request: 'pay-1 #2' }),
    step(3, 0, 'api-0', 'get', 'idem:k', 'null', { service: 'store', request: 'pay-1 #2' }),
    step(4, 0, 'api-0', 'get', 'idem:k', 'null', { service: 'store', request: 'pay-1 #1' }),
    step(5, 100, 'api-0', 'capture', 'pay-1', 'done', { service: 'psp', request: 'pay-1 #1', highlight: true }),
    step(6, 100, 'api-0', 'capture', 'pay-1', 'done', { service: 'psp', request: 'pay-1 #2', highlight: true }),
  ]);
  assert.ok(m.manyRequests);
  assert.equal(m.steps[3].wait?.after, 0, "request #1's read waits after its own delivery, not after #2's read");
  assert.equal(m.steps[5].wait?.after, 2);
  const t = layoutTimeline(m, 'across');
  const first = t.bars.find((b) => b.step.step === 4)!;
  assert.ok(first.side, 'a bar passing other cards of its lane runs along the edge');
  const apart = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
  for (const b of t.bars) for (const c of t.cards) assert.ok(apart(b, c), `bar of step ${b.step.step} crosses a card`);
  assert.equal(storyOf(m).sentence, "Api-0 went on to capture for both pay-1 #1 and pay-1 #2 (steps 5 and 6).");
});

test('a frozen worker: its lane is frozen from the stall to the wake, and its call waits across', () => {
  const m = traceModel(leaseRanOutFrozen);
  assert.deepEqual(m.frozen, [{ lane: 0, from: 2, to: 8 }]);
  const get = m.steps[9];
  assert.equal(get.operation, 'get');
  assert.deepEqual(get.wait, { kind: 'call', after: 1, from: 2, since: 0 }, 'the read was issued right after the claim, before the stall');
  assert.equal(m.steps[3].kind, 'expiry');
  assert.equal(m.steps[3].lane, 0, "the lease's expiry shows in its holder's lane");
  for (const orientation of ['across', 'down'] as const) {
    const t = layoutTimeline(m, orientation);
    const [frozen] = t.frozen;
    const stall = t.cards[2];
    const wake = t.cards[8];
    if (orientation === 'across') assert.ok(frozen.x === stall.x + stall.w && frozen.x + frozen.w === wake.x, 'frozen from the stall to the wake');
    else assert.ok(frozen.y === stall.y + stall.h && frozen.y + frozen.h === wake.y, 'frozen from the stall to the wake');
    assert.deepEqual(t.expiries.map((e) => e.step.step), [4]);
    assert.ok(t.bars.find((b) => b.step === get)?.side, "the read's bar passes the stall and the wake along the lane's edge");
  }
});

test('the story of a lease that ran out while its holder was frozen', () => {
  assert.equal(storyOf(traceModel(leaseRanOutFrozen)).sentence,
    "outreach-0's lease on claim:be-reengage-q2:shard-14 ran out at step 4 while outreach-0 was frozen (steps 3 to 9); "
    + 'outreach-1 took it at step 6, and outreach-0 still went on to send cand_3Hd9Rw at step 24.');
});

test('the story of a lease that ran out while its holder waited on a call', () => {
  const story = storyOf(traceModel(leaseRanOutInFlight));
  assert.equal(story.sentence,
    "outreach-0's lease on claim:be-reengage-q2:shard-14 ran out at step 10 while its lookup was still in flight (since 1200 ms); "
    + 'outreach-1 took it at step 13, and outreach-0 still went on to send cand_3Hd9Rw at step 21.');
  assert.equal(story.overlap?.call.step, 11);
  assert.equal(story.overlap?.during.step, 10);
});

test('a call site is read as path, line and column', () => {
  assert.deepEqual(parseSite('src/locks/job-lock.js:42:11'), { path: 'src/locks/job-lock.js', line: 42, column: 11 });
  assert.deepEqual(parseSite('src/a:b.js:7'), { path: 'src/a:b.js', line: 7 });
  assert.equal(parseSite('src/locks/job-lock.js'), null);
  assert.equal(parseSite(undefined), null);
  assert.equal(parseSite('x.js:0:1'), null);
  assert.equal(siteName({ path: 'src/locks/job-lock.js', line: 42, column: 11 }), 'src/locks/job-lock.js line 42');
});

test('when no step breaks the property, the story is the last lease that ran out', () => {
  assert.equal(storyOf(traceModel(leaseRanOutNothingBroke)).sentence,
    "outreach-1's lease on claim:be-reengage-q2:shard-14 ran out at step 19 while its lookup was still in flight (since 20700 ms).");
});

test('with several requests in the trace, the story names the one each step served', () => {
  const m = traceModel([
    step(1, 0, 'blue', 'receive', 'job-7', 'delivery 1', { request: 'job-7 #1' }),
    step(2, 0, 'blue', 'get', 'lock:job-7', 'null', { service: 'store', request: 'job-7 #1' }),
    step(3, 0, 'green', 'receive', 'job-7', 'delivery 2', { request: 'job-7 #2' }),
    step(4, 0, 'green', 'get', 'lock:job-7', 'null', { service: 'store', request: 'job-7 #2' }),
    step(5, 0, 'blue', 'set', 'lock:job-7', 'wrote "blue"', { service: 'store', request: 'job-7 #1' }),
    step(6, 0, 'blue', 'send', 'job-7', 'done', { service: 'provider', request: 'job-7 #1', highlight: true }),
    step(7, 0, 'green', 'send', 'job-7', 'done', { service: 'provider', request: 'job-7 #2', highlight: true }),
  ]);
  assert.equal(storyOf(m).sentence,
    "blue's set of lock:job-7 (for job-7 #1) was still in flight when green (for job-7 #2) read it at step 4 and got null; blue and green both went on to send (steps 6 and 7).");
});
