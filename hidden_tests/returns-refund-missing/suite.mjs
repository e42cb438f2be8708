// Hidden tests for "Approved returns that were never refunded".
//
// The harness runs src/worker.js once per worker (blue, green), each its own
// process, and explores every order in which their database and bus calls can
// arrive and their timers fire, within the fault model of the repository
// README, which the suite receives as `faultModel` and derives its world from:
// two workers that share only the returns database and the event bus; database
// calls within their latency bound, each applied as one step, and writes that
// may fail having written nothing; publishes within theirs, refused (nothing
// kept) or timed out (the bus may have kept the event); commands delivered at
// least once, again after the visibility timeout when unanswered; housekeeping
// ticks on every worker; and a worker that may die at any point.
//
// A crash strikes right after a worker's n-th write (a database write or a
// publish that the bus kept). Between two writes a worker only reads, so dying
// there leaves the world as dying right after the earlier write does: the
// scenarios below crash blue after each of its first four writes,
// wherever a fix puts them, and the command it was handling is then delivered
// again to green, as the queue does after the visibility timeout.
//
// The returns, the database and bus, the properties and the crash scenarios'
// test names live in the files beside this one (returns.mjs, services.mjs,
// properties.mjs, crash-tests.mjs).

import { RETURNS } from './returns.mjs';
import { returnsDb, eventBus, WRITES } from './services.mjs';
import { noLostRefund, noEventWithoutApproval, oneRefundPerReturn, answersTrue, quietHousekeeping } from './properties.mjs';
import { ORDINALS, CRASH_TESTS, CRASH_AFTER_TICK_TESTS, UNKEPT_PUBLISH } from './crash-tests.mjs';

/** How many housekeeping periods the bus refuses every publish for, where a scenario has it refuse. */
const OUTAGE_TICKS = 10;

/** Answers that end a command: the queue acknowledges it. */
const ANSWERS = ['approved', 'not-approvable', 'unknown-return', 'cancelled', 'too-late', 'done'];

/** The fault model's remote `name`, or a clear error when the run was given none. */
function remote(faultModel, name) {
  const model = faultModel?.remotes?.[name];
  if (!model) throw new Error(`this suite explores the dossier's fault model, which says nothing about the remote "${name}"`);
  return model;
}

export default ({ faultModel }) => {
  const db = remote(faultModel, 'db');
  const bus = remote(faultModel, 'bus');
  const redeliveryMs = faultModel.delivery.redeliveryAfterMs;
  const tickMs = faultModel.timeouts.find((t) => /housekeeping/.test(t.name))?.afterMs;
  if (!redeliveryMs || !tickMs) throw new Error('the fault model must give the redelivery delay and the housekeeping period');
  const crashes = faultModel.crashes !== 'none';
  // Every command of a scenario has been answered, redelivered ones included,
  // before this housekeeping run: it is the next one after them.
  const lastTickAt = 2 * tickMs;
  /** When the scheduler's first housekeeping tick after `ms` comes. */
  const nextTickAfter = (ms) => (Math.floor(ms / tickMs) + 1) * tickMs;

  const world = (returns, timesOut) => ({ db: returnsDb(returns, db.latencyMs), bus: eventBus(bus.latencyMs, timesOut) });
  const approve = (ret, worker, at) => ({ worker, job: `approve-${ret.id}`, at });
  const tick = (worker, n, at) => ({ worker, job: `tick-${worker}-${n}`, at });
  const tickAfter = (worker, n, i) => ({ worker, job: `tick-${worker}-${n}`, after: i, delayMs: 0 });
  // A command that throws is delivered again after the visibility timeout.
  const redeliver = { everyMs: redeliveryMs, maxAttempts: 3 };
  // Scenarios where one worker acts at a time have few schedules: a small budget.
  const oneAtATime = { maxWork: 1_000 };

  const scenarios = [
    {
      // Housekeeping on green runs while blue approves; later both workers' runs at once.
      name: 'an approval while housekeeping runs on both workers',
      services: world([RETURNS.parka, RETURNS.tent]),
      redeliver,
      deliveries: [
        approve(RETURNS.parka, 'blue', 0),
        tick('green', 1, 0),
        tick('blue', 2, lastTickAt),
        tick('green', 2, lastTickAt),
      ],
      tests: [
        { name: 'an approval is announced whenever housekeeping runs', property: 'noLostRefund' },
        { name: 'no return is announced before its approval is written, nor again long after', property: 'noEventWithoutApproval' },
        { name: 'two workers announcing at once refund a return once', property: 'oneRefundPerReturn' },
        { name: 'an approval during housekeeping is answered approved', property: 'answersTrue' },
        { name: 'housekeeping does not publish again what the bus already confirmed', property: 'quietHousekeeping' },
      ],
    },
    {
      name: 'two returns approved on two workers, then one housekeeping run',
      // The reference needs 1 210 steps of work here, an outbox whose rows
      // are marked sent 12 030.
      limits: { maxWork: 20_000 },
      services: world([RETURNS.parka, RETURNS.boots, RETURNS.tent, RETURNS.gloves]),
      redeliver,
      deliveries: [
        approve(RETURNS.boots, 'blue', 0),
        approve(RETURNS.parka, 'green', 0),
        // An agent scans old labels: the customer had cancelled one return,
        // and the other was approved and refunded last October.
        { worker: 'green', job: `approve-${RETURNS.gloves.id}`, after: 1, delayMs: 0 },
        { worker: 'blue', job: `approve-${RETURNS.tent.id}`, after: 0, delayMs: 0 },
        tick('green', 1, lastTickAt),
      ],
      tests: [
        { name: 'every approval waiting is announced by the next housekeeping run', property: 'noLostRefund' },
        { name: 'approvals at once are each announced for their own return, and a cancelled or long-refunded one never', property: 'noEventWithoutApproval' },
        { name: 'approvals at once are answered with what the database holds', property: 'answersTrue' },
      ],
    },
    {
      // Each worker handles many commands at once, and they share its memory
      // (README): two approvals reach the same worker together. No step of
      // one commutes with a step of the other, which multiplies the
      // schedules: the reference needs about 980 steps of work here, a fix
      // that publishes at once and throws when the bus refuses 9 500.
      name: 'two returns approved on one worker at once, then one housekeeping run',
      services: world([RETURNS.parka, RETURNS.boots]),
      redeliver,
      // A fix that reads the return once more before each publish, 35 000.
      limits: { maxWork: 44_000 },
      deliveries: [approve(RETURNS.boots, 'blue', 0), approve(RETURNS.parka, 'blue', 0), tick('green', 1, lastTickAt)],
      tests: [
        { name: 'two approvals at once on one worker are each announced', property: 'noLostRefund' },
        { name: 'two approvals at once on one worker are each announced with their own return\'s fields', property: 'noEventWithoutApproval' },
        { name: 'two approvals at once on one worker are each answered with what the database holds', property: 'answersTrue' },
      ],
    },
    {
      // Both approvals' publishes are refused until their commands could be
      // delivered again (a command that throws is); whatever is still owed
      // then, the next housekeeping run announces all of it.
      name: 'two returns approved on two workers while the bus refuses, then one housekeeping run',
      services: world([RETURNS.parka, RETURNS.boots]),
      faults: [{ target: 'bus', method: 'publish', fail: (args, call) => call.at < redeliveryMs && 'bus unavailable: the broker answered 503 (failing over)' }],
      redeliver: { everyMs: redeliveryMs, maxAttempts: Math.floor(lastTickAt / redeliveryMs) },
      // With one delay: a call still in flight while the other worker's go on.
      // The reference needs about 360 steps of work, a fix that publishes at
      // once and again from the outbox on each redelivery 22 500 (as many as
      // without the delay), one that reads the return once more before each
      // publish 69 900.
      limits: { maxDelays: 1, maxWork: 88_000 },
      deliveries: [approve(RETURNS.boots, 'blue', 0), approve(RETURNS.parka, 'green', 0), tick('green', 1, lastTickAt)],
      tests: [
        { name: 'every approval still owed an event is announced by the next housekeeping run', property: 'noLostRefund' },
      ],
    },
    {
      // The README: the customer may cancel until the parcel is approved.
      name: 'the customer cancels while the agent approves',
      services: world([RETURNS.parka, RETURNS.tent]),
      redeliver,
      deliveries: [
        approve(RETURNS.parka, 'blue', 0),
        { worker: 'green', job: `cancel-${RETURNS.parka.id}`, at: 0 },
        tick('green', 1, lastTickAt),
      ],
      tests: [
        { name: 'a return cancelled under an approval is not announced', property: 'noEventWithoutApproval' },
        { name: 'an approval that won over a cancellation is announced', property: 'noLostRefund' },
        { name: 'the agent and the customer are both told what happened', property: 'answersTrue' },
      ],
    },
  ];

  // The README: a publish may be refused (the bus keeps nothing), or time out
  // after the bus kept the event. Blue's first publish fails, wherever a fix
  // makes it; the first kind as a fault of the bus, the second inside it.
  if (bus.failures.some((f) => f.kind === 'refused' || f.effect === 'none')) {
    // The bus refuses for as long as a failover lasts, more housekeeping runs
    // than any relay could reasonably count tries for: every run meanwhile
    // meets a refusal, and the first run after it has to publish. A run that
    // throws is delivered once more, before the scheduler's next tick; the
    // approval is delivered again for as long as the outage lasts and twice
    // after it (the README: "as many times as it takes"), so a fix that leaves
    // the retry to the queue's redelivery gets to publish once the bus is back.
    const outageMs = OUTAGE_TICKS * tickMs;
    scenarios.push({
      name: `the bus refuses every publish for ${outageMs / 1000} s, while housekeeping runs`,
      // The approval comes on green half a visibility timeout in, so that its
      // redeliveries fall between blue's runs: each one landing at the same
      // instant as a run multiplied the schedules (a fix that publishes from
      // the outbox again on every redelivery needed more than 64 000 steps of
      // work that way, 460 now). One delay: with two, every pair of the many
      // calls of ten runs could be the late ones. The reference needs about
      // 260, a fix that throws until the bus is back about 1 900, a relay that
      // tries a publish three times in a run, 250 and 500 ms apart, 16 800.
      limits: { maxDelays: 1, maxWork: 24_000 },
      services: world([RETURNS.parka, RETURNS.tent]),
      faults: [{ target: 'bus', method: 'publish', fail: (args, call) => call.at < outageMs && 'bus unavailable: the broker answered 503 (failing over)' }],
      redeliver: { everyMs: redeliveryMs, maxAttempts: 2 },
      deliveries: [
        { ...approve(RETURNS.parka, 'green', redeliveryMs / 2), maxAttempts: outageMs / redeliveryMs + 2 },
        tickAfter('blue', 0, 0),
        ...Array.from({ length: OUTAGE_TICKS - 1 }, (_, i) => tick('blue', i + 1, (i + 1) * tickMs)),
        // The first run after the outage is the other worker's: what the
        // approving worker kept in its memory does not help it.
        tick('blue', OUTAGE_TICKS, outageMs),
      ],
      tests: [
        { name: 'an approval whose publish was refused is still announced', property: 'noLostRefund' },
        { name: 'an approval whose publish was refused is answered truthfully', property: 'answersTrue' },
        { name: 'once a refused publish went through, housekeeping stays quiet', property: 'quietHousekeeping' },
      ],
    });
  }
  if (bus.failures.some((f) => f.kind === 'timeout')) {
    // "May or may not have kept it": both, so that no fix can take a timeout
    // for either.
    scenarios.push({
      name: "blue's first publish times out and the bus has nothing",
      limits: oneAtATime,
      services: world([RETURNS.parka, RETURNS.tent]),
      faults: [{ target: 'bus', method: 'publish', fail: (args, call) => call.worker === 'blue' && call.failures === 0 && 'publish timed out after 2000 ms: the broker did not confirm' }],
      redeliver,
      deliveries: [approve(RETURNS.parka, 'blue', 0), tickAfter('blue', 1, 0), tick('green', 2, lastTickAt)],
      tests: [
        { name: 'an approval whose publish timed out unseen is still announced', property: 'noLostRefund' },
        { name: 'an approval whose publish timed out unseen is answered truthfully', property: 'answersTrue' },
      ],
    });
  }
  if (bus.failures.some((f) => f.kind === 'timeout' && f.effect !== 'none')) {
    scenarios.push({
      name: "blue's first publish times out after the bus kept the event",
      limits: oneAtATime,
      services: world([RETURNS.parka, RETURNS.tent], (worker, n) => worker === 'blue' && n === 0),
      redeliver,
      deliveries: [approve(RETURNS.parka, 'blue', 0), tickAfter('blue', 1, 0), tick('green', 2, lastTickAt)],
      tests: [
        { name: 'an event the bus kept without confirming is not paid twice', property: 'oneRefundPerReturn' },
        { name: 'an approval whose publish timed out is still announced', property: 'noLostRefund' },
        { name: 'an approval whose publish timed out is answered truthfully', property: 'answersTrue' },
      ],
    });
  }

  // The README: a database call may fail, having done nothing. Every write,
  // then every read, of blue's first attempt at each command fails, the
  // approval's and housekeeping's; the queue delivers them again. A failed
  // query says nothing about what is owed.
  if (db.failures.length > 0) {
    const blueFirstAttemptsFail = (what, methods, error, tests) => ({
      name: `the database fails every ${what} of blue's first attempts`,
      limits: oneAtATime,
      services: world([RETURNS.parka, RETURNS.tent]),
      redeliver,
      faults: methods.map((method) => ({ target: 'db', method, fail: (args, call) => call.worker === 'blue' && call.delivery?.attempt === 1 && error })),
      deliveries: [approve(RETURNS.parka, 'blue', 0), tickAfter('blue', 1, 0), tick('green', 2, lastTickAt)],
      tests,
    });
    scenarios.push(blueFirstAttemptsFail('write', WRITES, 'returns-db: primary failover in progress, nothing was written', [
      { name: 'nothing is announced for an approval the database did not write', property: 'noEventWithoutApproval' },
      { name: 'an approval written on its second delivery is announced', property: 'noLostRefund' },
      { name: 'an approval the database failed is answered once it is written', property: 'answersTrue' },
    ]));
    scenarios.push(blueFirstAttemptsFail('read', ['get', 'query'], 'returns-db: connection reset while reading; nothing was read', [
      { name: 'an approval whose reads failed is announced once it is written', property: 'noLostRefund' },
      { name: 'nothing is announced for a return a failed read left unapproved', property: 'noEventWithoutApproval' },
      { name: 'an approval whose reads failed is answered truly', property: 'answersTrue' },
    ]));
  }

  // The README: a worker can die at any point; its unanswered command goes to
  // green after the visibility timeout.
  if (crashes) {
    CRASH_TESTS.forEach((names, i) => {
      scenarios.push({
        name: `blue dies right after its ${ORDINALS[i]} write`,
        crash: { worker: 'blue', after: i + 1 },
        limits: oneAtATime,
        services: world([RETURNS.parka, RETURNS.tent]),
        redeliver,
        deliveries: [
          approve(RETURNS.parka, 'blue', 0),
          tickAfter('blue', 1, 0),
          approve(RETURNS.parka, 'green', redeliveryMs),
          // The next run after the redelivered approval is answered.
          tick('green', 2, nextTickAfter(redeliveryMs)),
        ],
        tests: [
          { name: names[0], property: 'noLostRefund' },
          { name: names[1], property: 'noEventWithoutApproval' },
          { name: names[2], property: 'oneRefundPerReturn' },
          { name: names[3], property: 'answersTrue' },
        ],
      });
    });
    CRASH_AFTER_TICK_TESTS.forEach((name, i) => {
      scenarios.push({
        name: `blue runs housekeeping, approves, and dies right after its ${ORDINALS[i]} write`,
        crash: { worker: 'blue', after: i + 1 },
        limits: oneAtATime,
        services: world([RETURNS.parka, RETURNS.tent]),
        redeliver,
        deliveries: [
          tick('blue', 1, 0),
          { worker: 'blue', job: `approve-${RETURNS.parka.id}`, after: 0, delayMs: 0 },
          approve(RETURNS.parka, 'green', redeliveryMs),
          // The next run after the redelivered approval is answered.
          tick('green', 2, nextTickAfter(redeliveryMs)),
        ],
        tests: [{ name, property: 'noLostRefund' }],
      });
    });
    // Green approves, and its first publish fails without the bus keeping the
    // event; then blue's housekeeping run dies right after its first to fourth
    // write. Green's answer (or its redelivery) came first, so no command is
    // left unanswered, and the next run, green's, must announce the return.
    // A time-out may leave the bus with nothing: that branch of it here.
    for (const failure of bus.failures.filter((f) => UNKEPT_PUBLISH[f.kind] && (f.effect === 'none' || f.kind === 'timeout'))) {
      const { what, error, tests } = UNKEPT_PUBLISH[failure.kind];
      ORDINALS.forEach((ordinal, i) => {
        scenarios.push({
          name: `green's first publish ${what}, and blue's housekeeping dies right after its ${ordinal} write`,
          crash: { worker: 'blue', after: i + 1 },
          limits: oneAtATime,
          services: world([RETURNS.parka, RETURNS.tent]),
          faults: [{ target: 'bus', method: 'publish', fail: (args, call) => call.worker === 'green' && call.failures === 0 && error }],
          redeliver,
          deliveries: [approve(RETURNS.parka, 'green', 0), tickAfter('blue', 1, 0), tick('green', 2, lastTickAt)],
          tests: [
            { name: tests[i][0], property: 'noLostRefund' },
            { name: tests[i][1], property: 'oneRefundPerReturn' },
          ],
        });
      });
    }
  }

  return {
    subject: {
      module: 'src/worker.js',
      factory: 'createReturnsWorker',
      method: 'handle',
      deps: {
        workerId: { $: 'worker' },
        db: { $: 'remote', name: 'db', methods: ['get', 'query', ...WRITES] },
        bus: { $: 'remote', name: 'bus', methods: ['publish'] },
        clock: { $: 'clock' },
      },
      message: (job, attempt) => (job.startsWith('tick-')
        ? { id: job, type: 'housekeeping.tick', attempt }
        : { id: `cmd-${job}`, type: job.startsWith('approve-') ? 'return.approve' : 'return.cancel', returnId: job.replace(/^(approve|cancel)-/, ''), agent: 'wh-ines', attempt }),
      acked: (outcome) => ANSWERS.includes(outcome),
    },
    properties: { noLostRefund, noEventWithoutApproval, oneRefundPerReturn, answersTrue, quietHousekeeping },
    limits: { maxLatencyMs: Math.max(db.latencyMs[1], bus.latencyMs[1]), maxSchedulesAfterFailure: 10, maxCallsPerDelivery: 40, maxWork: 12_000 },
    scenarios,
  };
};
