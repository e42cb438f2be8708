// Hidden tests for 'Delivered parcels went back to "out for delivery"'.
//
// The harness imports src/consumer.js once per simulated tracker (each its own
// process) and explores every order in which their store calls can arrive and
// their timers fire, within the fault model of the repository README, from
// which every number below is derived: store calls that complete within
// 100 ms, a store call that fails having changed nothing, a queue that delivers
// a parcel's events in any order, to either tracker, again after a failure or
// 30 s, and the same event to both trackers at once; a tracker that freezes at
// any point for any length of time, and one that dies.
//
// The data does not let an order other than `seq` get lucky: two events of one
// parcel carry the same second (the depot's belt scans a parcel in and loads
// it on the van together), a later event carries an earlier second (the
// courier's handheld runs behind the warehouse's clock), event 10 follows
// event 9 (10 sorts before 9 as text), a later event can have an earlier
// status (back at the depot after a failed delivery), and a later event can
// repeat the status shown (out for delivery again the next day).

import { EVENTS, PARCEL_OF_KEY, newestShown, neverBack, shownBefore } from './status-properties.mjs';

const STORE = ['get', 'set', 'setIfAbsent', 'compareAndSet', 'compareAndDelete', 'delete', 'incrBy', 'expire', 'compareAndExpire'];

/** The store calls that change what the store holds: where a failing store fails. */
const WRITES = ['set', 'setIfAbsent', 'compareAndSet', 'compareAndDelete', 'delete', 'incrBy', 'expire', 'compareAndExpire'];

/** The latest virtual time of a schedule, in ms: every scenario but the freeze ends by then. */
const HORIZON_MS = 300_000;

/**
 * How long a tracker freezes: longer than anything the other scenarios let a
 * tracker wait on (a lock or marker held that long would leave the dying
 * tracker's parcel stuck past the horizon), so a freeze outlasts whatever it
 * holds. The README bounds no pause.
 */
const FREEZE_MS = HORIZON_MS;

/**
 * The numbers of the dossier's fault model the worlds are built from.
 * @param {object | null} faultModel
 */
function modelOf(faultModel) {
  const store = faultModel?.remotes?.store;
  if (!store || !faultModel.delivery) throw new Error('this suite explores the dossier\'s fault model, which must describe the store and the queue');
  return {
    storeMs: store.latencyMs,
    storeFails: store.failures.some((f) => f.effect === 'none'),
    redeliver: { everyMs: faultModel.delivery.redeliveryAfterMs, maxAttempts: 3 },
    overlapping: faultModel.delivery.duplicates === 'overlapping',
    pauses: faultModel.pauses !== null,
    crashes: faultModel.crashes !== 'none',
  };
}

export default ({ faultModel }) => {
  const m = modelOf(faultModel);
  const at0 = (worker, job) => ({ worker, job, at: 0 });
  const scenarios = [
    {
      name: 'two events of one parcel, scanned in the same second, reach the two trackers at once',
      store: shownBefore('evt-7f3a-0007'),
      redeliver: m.redeliver,
      deliveries: [at0('tracker-a', 'evt-7f3a-0008'), at0('tracker-b', 'evt-7f3a-0009')],
      tests: [
        { name: 'the page shows each parcel\'s newest event once its events are handled', property: 'newestShown' },
        { name: 'the page never goes back to an older event of a parcel', property: 'neverBack' },
        { name: 'no event is retried against the store without end', property: 'boundedCalls' },
      ],
    },
    {
      // A parcel's first events: the store holds no document for it yet. The
      // second was scanned on a clock 40 s behind the first one's.
      name: 'the first two events of a new parcel reach the two trackers at once',
      redeliver: m.redeliver,
      deliveries: [at0('tracker-a', 'evt-c40d-0001'), at0('tracker-b', 'evt-c40d-0002')],
      tests: [
        { name: 'a new parcel shows its newest event once its first events are handled', property: 'newestShown' },
        { name: 'a new parcel\'s page never goes back to its first event', property: 'neverBack' },
      ],
    },
    {
      // Three events of one parcel in flight: the first two at once, and the
      // third after the first on its tracker. The newest one's conditional
      // write can be refused by each of the other two in turn (a fix that
      // gives up after two refused writes leaves the page on event 9).
      name: 'three events of one parcel, the newest racing the other two in turn',
      store: shownBefore('evt-7f3a-0007'),
      redeliver: m.redeliver,
      // The reference needs about 620 steps of work here, a fix that takes a
      // lock before its conditional write and waits 100 ms between tries 10 100.
      limits: { maxWork: 15_000 },
      deliveries: [
        at0('tracker-a', 'evt-7f3a-0008'),
        at0('tracker-b', 'evt-7f3a-0010'),
        { worker: 'tracker-a', job: 'evt-7f3a-0009', after: 0, delayMs: 0 },
      ],
      tests: [
        { name: 'the page shows the newest of three events, however often its write was refused', property: 'newestShown' },
      ],
    },
    {
      // The middle event races the first and then the newest, which starts
      // after the first on its tracker: once its conditional write is refused,
      // whatever the middle one does next meets the newest one's write.
      name: 'three events of one parcel, the middle one racing the other two in turn',
      store: shownBefore('evt-7f3a-0007'),
      redeliver: m.redeliver,
      // As above: about 620 and 10 100 steps.
      limits: { maxWork: 15_000 },
      deliveries: [
        at0('tracker-a', 'evt-7f3a-0008'),
        at0('tracker-b', 'evt-7f3a-0009'),
        { worker: 'tracker-a', job: 'evt-7f3a-0010', after: 0, delayMs: 0 },
      ],
      tests: [
        { name: 'an event whose write was refused never takes the page back from a newer one', property: 'neverBack' },
        { name: 'the page shows the newest of three events, whichever was refused', property: 'newestShown' },
      ],
    },
    {
      // Three older events, one after the other on one tracker, each of which
      // can land between the newest one's read and its conditional write on
      // the other: refused three times in a row (a tracker handles up to eight
      // messages at once, and the README bounds no run of refusals).
      name: 'four events of one parcel, the newest racing the three others in turn',
      store: shownBefore('evt-7f3a-0006'),
      redeliver: m.redeliver,
      // The reference needs about 2 100 steps of work here, a fix that reads
      // the document back after its write 9 200, the locking fix above 41 600,
      // so a chattier correct fix still has room. (Each further event
      // multiplies that: with five, 7 800, 48 500 and 131 000.)
      limits: { maxWork: 96_000 },
      deliveries: [
        at0('tracker-a', 'evt-7f3a-0007'),
        at0('tracker-b', 'evt-7f3a-0010'),
        { worker: 'tracker-a', job: 'evt-7f3a-0008', after: 0, delayMs: 0 },
        { worker: 'tracker-a', job: 'evt-7f3a-0009', after: 2, delayMs: 0 },
      ],
      tests: [
        { name: 'the page shows the newest of four events, however many times in a row its write was refused', property: 'newestShown' },
      ],
    },
    {
      name: 'an older event and a repeat arrive after a newer one was recorded',
      store: shownBefore('evt-91c2-0003'),
      redeliver: m.redeliver,
      deliveries: [
        at0('tracker-a', 'evt-91c2-0004'),
        { worker: 'tracker-b', job: 'evt-91c2-0005', after: 0 },
        { worker: 'tracker-b', job: 'evt-91c2-0004', after: 1 },
      ],
      tests: [
        { name: 'a parcel back at the depot after a failed delivery shows it, whatever arrives late', property: 'newestShown' },
        { name: 'an event delivered again after a newer one never takes the page back', property: 'neverBack' },
        { name: 'older and repeated events are acknowledged, not retried', property: 'allDeliveriesAcked' },
      ],
    },
  ];
  scenarios.push({
    // The parcel was out for delivery, then back at the depot after a failed
    // attempt, and out for delivery again the next day: the newest event
    // repeats the status of the one shown while the one between is in flight.
    name: 'out for delivery again the next day, while the evening\'s return to the depot is handled',
    store: shownBefore('evt-91c2-0003'),
    redeliver: m.redeliver,
    deliveries: [at0('tracker-a', 'evt-91c2-0006'), at0('tracker-b', 'evt-91c2-0005')],
    tests: [
      { name: 'an event with the same status as the one shown, but newer, is shown', property: 'newestShown' },
    ],
  });
  scenarios.push({
    // Each tracker handles up to 8 messages at once (README), and they share
    // its memory: two events of one parcel reach the same tracker together.
    // What one process keeps between its messages is the point here, not how
    // slow calls interleave (the scenarios above and below explore those):
    // calls all at their quickest or all at their slowest. Two requests of one
    // process multiply the schedules (no step of one commutes with a step of
    // the other): the reference needs about 330 steps of work here, a fix
    // that waits for a lock polled every 100 ms before its compare-and-set
    // 8 700, and 27 300 with two delays.
    name: 'two events of one parcel reach the same tracker at once',
    store: shownBefore('evt-7f3a-0008'),
    redeliver: m.redeliver,
    limits: { maxDelays: 0, maxWork: 12_000 },
    deliveries: [at0('tracker-a', 'evt-7f3a-0010'), at0('tracker-a', 'evt-7f3a-0009')],
    tests: [
      { name: 'one tracker handling two events of a parcel at once shows the newest', property: 'newestShown' },
      { name: 'one tracker handling two events of a parcel at once never goes back', property: 'neverBack' },
    ],
  });
  if (m.pauses) {
    scenarios.push({
      name: 'out for delivery and delivered reach the two trackers at once, and one tracker freezes at any point',
      store: shownBefore('evt-7f3a-0008'),
      redeliver: m.redeliver,
      // The freeze falls at every point of a schedule.
      pauses: [{ worker: 'tracker-a', ms: FREEZE_MS }],
      // The reference needs about 800 steps of work here, a fix that waits for
      // a lock (polled every 100 ms) before its compare-and-set 15 600.
      limits: { maxDelays: 1, maxWork: 22_000, horizonMs: FREEZE_MS + HORIZON_MS },
      deliveries: [at0('tracker-a', 'evt-7f3a-0009'), at0('tracker-b', 'evt-7f3a-0010')],
      tests: [
        { name: 'a delivered parcel stays delivered when its earlier event is handled at the same time', property: 'newestShown' },
        { name: 'the page never goes back from delivered, even when a tracker froze', property: 'neverBack' },
      ],
    });
  }
  if (m.storeFails) {
    // The store fails tracker-b's writes of the parcel's status document in
    // its first attempt, whatever it writes before them: the first of each
    // method where tracker-b holds the newest event; where it holds the older
    // one, while the other tracker records the newer, only the first write of
    // any method, so that what it does next (another method) goes through.
    const failWrites = (firstOf) => WRITES.map((method) => ({
      target: 'store', method,
      fail: (args, call) => call.worker === 'tracker-b' && call.delivery?.attempt === 1 && call[firstOf] === 0 && PARCEL_OF_KEY.has(args[0])
        && `store ${method} failed: READONLY You can't write against a read only replica.`,
    }));
    scenarios.push({
      name: 'the store fails a tracker\'s writes, and the queue delivers the event again',
      store: shownBefore('evt-7f3a-0009'),
      redeliver: m.redeliver,
      faults: failWrites('failures'),
      deliveries: [at0('tracker-b', 'evt-7f3a-0010'), at0('tracker-a', 'evt-7f3a-0009')],
      tests: [
        { name: 'an event whose write failed is recorded when it is delivered again', property: 'newestShown' },
        { name: 'every event is dealt with once the store answers again', property: 'allDeliveriesAcked' },
      ],
    });
    scenarios.push({
      name: 'the store fails the write of an older event while the other tracker records a newer one',
      store: shownBefore('evt-7f3a-0008'),
      redeliver: m.redeliver,
      faults: failWrites('failuresOnKey'),
      deliveries: [at0('tracker-b', 'evt-7f3a-0009'), at0('tracker-a', 'evt-7f3a-0010')],
      tests: [
        { name: 'what a tracker does after a failed write never takes the page back', property: 'neverBack' },
        { name: 'the newest event stays shown when an older one\'s write failed', property: 'newestShown' },
      ],
    });
    // A read fails too: tracker-b's first read of the parcel's status, on
    // the first delivery of its event, while tracker-a records another: once
    // an event older than the one tracker-a records, once the newest. A
    // failed read says nothing about what the page shows.
    const failFirstRead = [{
      target: 'store', method: 'get',
      fail: (args, call) => call.worker === 'tracker-b' && call.delivery?.attempt === 1 && call.failures === 0 && PARCEL_OF_KEY.has(args[0])
        && 'store get failed: LOADING Redis is loading the dataset in memory',
    }];
    scenarios.push({
      name: 'the store fails a tracker\'s read of the status, and the queue delivers the event again',
      store: shownBefore('evt-7f3a-0008'),
      redeliver: m.redeliver,
      faults: failFirstRead,
      deliveries: [at0('tracker-b', 'evt-7f3a-0009'), at0('tracker-a', 'evt-7f3a-0010')],
      tests: [
        { name: 'a read that failed never takes the page back to an older event', property: 'neverBack' },
        { name: 'the newest event is shown once a failed read is tried again', property: 'newestShown' },
      ],
    });
    scenarios.push({
      name: 'the store fails the read of the newest event while the other tracker records an older one',
      store: shownBefore('evt-7f3a-0008'),
      redeliver: m.redeliver,
      faults: failFirstRead,
      deliveries: [at0('tracker-b', 'evt-7f3a-0010'), at0('tracker-a', 'evt-7f3a-0009')],
      tests: [
        { name: 'the newest event is shown when its read failed', property: 'newestShown' },
      ],
    });
  }
  if (m.overlapping) {
    scenarios.push({
      name: 'the same event reaches the second tracker at any moment of the first one\'s handling',
      store: shownBefore('evt-7f3a-0009'),
      redeliver: m.redeliver,
      deliveries: [at0('tracker-a', 'evt-7f3a-0010'), { worker: 'tracker-b', job: 'evt-7f3a-0010', during: 0 }],
      tests: [
        { name: 'an event whose repeat arrives while it is handled is recorded and acknowledged', property: 'allDeliveriesAcked' },
        { name: 'an event whose repeat arrives while it is handled leaves the newest event shown', property: 'newestShown' },
      ],
    });
    scenarios.push({
      name: 'the same event reaches both trackers at once',
      store: shownBefore('evt-7f3a-0009'),
      redeliver: m.redeliver,
      deliveries: [at0('tracker-a', 'evt-7f3a-0010'), at0('tracker-b', 'evt-7f3a-0010')],
      tests: [
        { name: 'an event handled twice at once is recorded and acknowledged', property: 'allDeliveriesAcked' },
        { name: 'an event handled twice at once leaves the newest event shown', property: 'newestShown' },
      ],
    });
  }
  if (m.crashes) {
    scenarios.push({
      name: 'a tracker dies right after its first write',
      store: shownBefore('evt-7f3a-0008'),
      redeliver: m.redeliver,
      crash: { worker: 'tracker-b' },
      // A fix that waits out the dead tracker's 30 s lock, polling every
      // 500 ms, needs about 12 500 steps of work here.
      limits: { maxDelays: 1, maxWork: 18_000 },
      // The queue hands the dead tracker's event to the other once its visibility timeout has passed.
      deliveries: [at0('tracker-b', 'evt-7f3a-0010'), at0('tracker-a', 'evt-7f3a-0009'),
        { worker: 'tracker-a', job: 'evt-7f3a-0010', at: m.redeliver.everyMs }],
      tests: [
        { name: 'the other tracker deals with its events when a tracker died', property: 'allDeliveriesAcked' },
        { name: 'the page never goes back when a tracker died mid-event', property: 'neverBack' },
        { name: 'an event whose tracker died is shown once the queue delivers it again', property: 'newestShown' },
      ],
    });
  }

  return {
    subject: {
      module: 'src/consumer.js',
      factory: 'createTracker',
      method: 'handle',
      deps: {
        trackerId: { $: 'worker' },
        store: { $: 'remote', name: 'store', methods: STORE },
        clock: { $: 'clock' },
      },
      message: (job, attempt) => ({ messageId: job, attempt, ...EVENTS[job] }),
      // The poller deletes every message whose handling resolved (README).
      acked: () => true,
    },
    properties: { newestShown, neverBack },
    // Elsewhere the reference needs at most 400 steps of work, a fix that
    // takes a lock before its conditional write and waits 100 ms between
    // tries 3 000.
    limits: { maxLatencyMs: m.storeMs[1], maxDelays: 2, maxCallsPerDelivery: 40, maxSchedulesAfterFailure: 20, maxWork: 6_000, horizonMs: HORIZON_MS },
    scenarios,
  };
};
