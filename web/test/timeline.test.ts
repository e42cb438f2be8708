import assert from 'node:assert/strict';
import { test } from 'node:test';
import { layoutTimeline } from '../src/run/timeline-layout';
import { overlaps, stepKind, traceModel } from '../src/run/trace-model';
import { storyOf } from '../src/run/trace-story';
import type { TraceStep } from '../src/lib/types';

const step = (n: number, at: number, worker: string, operation: string, key: string, result: string, highlight?: boolean): TraceStep =>
  ({ step: n, at, worker, operation, key, result, highlight });

// "set, sleep 10 ms, re-read" against the hidden suite: green's set left at
// 0 ms and reached the store only after blue had re-read the lock.
const setSleepReread = [
  step(1, 0, 'blue', 'receive', 'job-7', 'delivery 1'),
  step(2, 0, 'blue', 'get', 'lock:job-7', 'null'),
  step(3, 0, 'green', 'receive', 'job-7', 'delivery 1'),
  step(4, 0, 'green', 'get', 'lock:job-7', 'null'),
  step(5, 0, 'blue', 'set', 'lock:job-7', 'wrote "blue", expires in 30000 ms'),
  step(6, 10, 'blue', 'timer', '', 'fires after 10 ms'),
  step(7, 10, 'blue', 'get', 'lock:job-7', '"blue"'),
  step(8, 10, 'green', 'set', 'lock:job-7', 'wrote "green", expires in 30000 ms (in flight since 0 ms)'),
  step(9, 10, 'blue', 'get', 'sent:job-7', 'null'),
  step(10, 10, 'blue', 'send', 'job-7', 'done', true),
  step(11, 20, 'green', 'timer', '', 'fires after 10 ms'),
  step(12, 20, 'green', 'get', 'lock:job-7', '"green"'),
  step(13, 20, 'green', 'get', 'sent:job-7', 'null'),
  step(14, 20, 'green', 'send', 'job-7', 'done', true),
];

test('operations are classified', () => {
  assert.equal(stepKind('get'), 'store');
  assert.equal(stepKind('setIfAbsent'), 'store');
  assert.equal(stepKind('compare-and-delete'), 'store');
  assert.equal(stepKind('send'), 'effect');
  assert.equal(stepKind('receive'), 'lifecycle');
  assert.equal(stepKind('answer'), 'lifecycle');
});

test('a call waits from its worker\'s previous step; the in-flight note moves off the result', () => {
  const m = traceModel([...setSleepReread].reverse());
  assert.deepEqual(m.lanes, ['blue', 'green']);
  assert.deepEqual(m.steps.map((s) => s.step), setSleepReread.map((s) => s.step));
  const greenSet = m.steps[7];
  assert.deepEqual(greenSet.wait, { kind: 'call', after: 3, from: 4, since: 0 });
  assert.equal(greenSet.outcome, 'wrote "green", expires in 30000 ms');
  assert.equal(m.steps[0].wait, undefined, 'a first step waits for nothing');
  assert.equal(m.steps[5].wait?.kind, 'timer');
});

test('overlaps: steps of another worker on the same key while a call was in flight', () => {
  const found = overlaps(traceModel(setSleepReread)).map((o) => `${o.call.step}<-${o.during.step}`);
  assert.deepEqual(found, ['5<-4', '8<-5', '8<-7']);
});

test('the story names the read that missed the write in flight, and the outcome', () => {
  const story = storyOf(traceModel(setSleepReread));
  assert.equal(story.sentence,
    'green\'s set of lock:job-7 was still in flight (since 0 ms) when blue read it at step 7 and got "blue"; blue and green both went on to send (steps 10 and 14).');
  assert.equal(story.overlap?.call.step, 8);
});

test('the story of the check-then-set bug', () => {
  const story = storyOf(traceModel([
    step(1, 0, 'blue', 'get', 'lock:job-7', 'null'),
    step(2, 0, 'green', 'get', 'lock:job-7', 'null'),
    step(3, 0, 'blue', 'set', 'lock:job-7', 'wrote "blue"'),
    step(4, 0, 'green', 'set', 'lock:job-7', 'wrote "green"'),
    step(5, 0, 'blue', 'send', 'job-7', 'done', true),
    step(6, 0, 'green', 'send', 'job-7', 'done', true),
  ]));
  assert.equal(story.sentence, 'blue\'s set of lock:job-7 was still in flight when green read it at step 2 and got null; blue and green both went on to send (steps 5 and 6).');
});

test('without an overlap the story names the breaking step', () => {
  const story = storyOf(traceModel([step(1, 0, 'blue', 'receive', 'job-7', 'delivery 2'), step(2, 0, 'blue', 'send', 'job-7', 'done', true)]));
  assert.equal(story.sentence, "Blue's send of job-7 at step 2 breaks the property.");
});

for (const orientation of ['across', 'down'] as const) {
  test(`timeline ${orientation}: cards never overlap, bars join a worker's cards and cross none`, () => {
    const m = traceModel(setSleepReread);
    const t = layoutTimeline(m, orientation);
    const apart = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
      a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
    for (const a of t.cards) for (const b of t.cards) if (a !== b) assert.ok(apart(a, b), 'cards overlap');
    for (const c of t.cards) assert.ok(c.x >= 0 && c.y >= 0 && c.x + c.w <= t.width && c.y + c.h <= t.height, 'card outside');
    assert.equal(t.bars.length, m.steps.filter((s) => s.wait).length);
    for (const b of t.bars) {
      assert.ok(b.w > 0 && b.h > 0, `bar of step ${b.step.step} is empty`);
      for (const c of t.cards) assert.ok(apart(b, c), `bar of step ${b.step.step} crosses a card`);
    }
    const greenSet = t.bars.find((b) => b.step.step === 8)!;
    const blueReread = t.cards[6];
    const along = orientation === 'across'
      ? greenSet.x < blueReread.x && greenSet.x + greenSet.w > blueReread.x + blueReread.w
      : greenSet.y < blueReread.y && greenSet.y + greenSet.h > blueReread.y + blueReread.h;
    assert.ok(along, "green's set is drawn in flight beside blue's re-read");
    assert.deepEqual(t.ticks.map((k) => k.at), [0, 10, 20]);
  });
}
