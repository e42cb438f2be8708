// Hidden tests for "Two outreach agents emailed the same candidate list after the
// claim-lock expired".
//
// Each scenario is explored in every schedule: every order in which the workers'
// store calls, enrichment lookups and sends can arrive, and every point at which a
// heartbeat, a poll of the shard board or a wake-up can fire, within the dossier's
// fault model (the repository README), from which every number below is derived:
// the claim lease (2 s in these tests), how long a lookup, a send and a store call
// may take (so a batch of a few candidates outlasts the lease), a shard offered
// again every redelivery interval while it is not recorded as sent, one call per
// schedule slower than a timer (a renewal racing its own lease), a worker frozen
// past its lease right after it claims, at its first or last candidate and at any
// other point, a claim or a renewal that fails, and a worker that dies.

import { CAMPAIGN, sendsOnlyByHolder, stopsOnceLost } from './claim-properties.mjs';
import { shardBoard, RENEWALS, failFirstRenewal, CANDIDATE_WRITES, failFirstCandidateWrite, failFirstReadOnRetry, timingsOf } from './shard-world.mjs';

const STORE = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'compareAndExpire', 'expire', 'delete'];

export default ({ faultModel }) => {
  const t = timingsOf(faultModel);
  const shards = shardBoard(t);
  const idsOf = (...ids) => [...new Set(ids.flatMap((id) => shards[id].candidates.map((c) => c.candidateId)))];
  const scenarios = [
    {
      name: 'a batch that outlasts the lease, offered to a second worker while the first is still sending, and again after',
      redeliver: t.redeliver(3),
      expect: idsOf('shard-14'),
      // One call per schedule may be as slow as the model allows while timers fire,
      // or answer as late as it allows: a renewal racing its own lease; and each
      // worker alone at its slowest while the other is quick (paces: 3). The
      // reference, renewing every third of a lease, needs about 5 400 steps of
      // work here; renewing every sixth, 9 000.
      limits: { maxWork: 16_000, paces: 3 },
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', at: t.leaseMs + t.leaseMs / 10 },
      ],
      tests: [
        { name: 'each candidate gets exactly one e-mail when the batch outlasts the lease', property: 'exactlyOncePerJob' },
        { name: 'a worker still sending keeps its shard: no other worker e-mails its candidates', property: 'sendsOnlyByHolder' },
        { name: 'nobody takes over, renews or deletes a live claim another worker holds', property: 'claimsRespected' },
        { name: 'a worker that finishes its batch releases its claim', property: 'claimsReleased' },
      ],
    },
    {
      // The board may offer the shard again at any moment of the first batch
      // (README): the explorer tries every one it can tell apart.
      name: 'the shard is offered to a second worker at any moment of the first one\'s batch',
      redeliver: t.redeliver(3),
      expect: idsOf('shard-14'),
      // Every moment of a batch of renewals and sends is a place to arrive:
      // calls all at their quickest or all at their slowest (the reference needs
      // about 9 800 steps, 12 800 renewing every sixth of a lease, 19 300 with
      // renewals fired and forgotten on a timer, 26 000 keeping each
      // candidate's record as a JSON document; with one delay more, over 40 000).
      limits: { maxDelays: 0, maxWork: 52_000 },
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', during: 0 },
      ],
      tests: [
        { name: 'each candidate gets exactly one e-mail whenever the shard is offered again', property: 'exactlyOncePerJob' },
        { name: 'whenever the shard is offered again, nobody takes over a live claim', property: 'claimsRespected' },
      ],
    },
  ];
  scenarios.push({
    // The README: a store call may fail, having done nothing, so a renewal that fails
    // did not extend the lease: the claim still ends when it would have. Outreach-0's
    // first renewal fails (whichever call renews it), and the failure is known at once.
    name: 'a renewal of the claim fails while the batch runs, and the shard is offered again',
    redeliver: t.redeliver(3),
    expect: idsOf('shard-14'),
    // Calls at their quickest, failures answered at once: the worker learns of the
    // failure before its claim can lapse, and a batch checks its claim more often
    // than the lease runs (a failure that answers late is one whose worker could not
    // yet know; the scenarios above let renewals answer late).
    // (the reference needs 72 steps, 490 renewing every quarter of a lease).
    limits: { maxDelays: 0, paces: 1, maxWork: 1_000 },
    faults: RENEWALS.map((method) => ({ target: 'store', method, fail: failFirstRenewal })),
    deliveries: [
      { worker: 'outreach-0', job: 'shard-14', at: 0 },
      { worker: 'outreach-1', job: 'shard-14', at: t.leaseMs + t.leaseMs / 10 },
    ],
    tests: [
      { name: 'a worker whose renewal failed sends nothing once another worker holds its shard', property: 'sendsOnlyByHolder' },
      { name: 'each candidate gets exactly one e-mail when a renewal fails', property: 'exactlyOncePerJob' },
      { name: 'after a failed renewal, nobody takes over, renews or deletes a claim another worker holds', property: 'claimsRespected' },
    ],
  });
  if (t.stallMs > t.leaseMs) {
    scenarios.push({
      name: 'the first worker freezes past its lease right after claiming, and wakes while the second is sending',
      stall: { worker: 'outreach-0', ms: t.stallMs },
      // Two workers busy at once: a slow call on top multiplies the schedules past any
      // budget (one delay took the reference from 800 steps of work to 47 000).
      limits: { maxDelays: 0, maxWork: 3_000 },
      expect: idsOf('shard-14'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', at: t.stallMs - t.leaseMs / 4 },
      ],
      tests: [
        { name: 'after a freeze longer than the lease, each candidate still gets exactly one e-mail', property: 'exactlyOncePerJob' },
        { name: 'a worker that wakes from a freeze sends nothing for a shard it no longer holds', property: 'sendsOnlyByHolder' },
        { name: 'a worker that wakes from a freeze does not renew or release the new holder\'s claim', property: 'claimsRespected' },
      ],
    });
  }
  if (t.stallMs > t.leaseMs) {
    scenarios.push({
      // A freeze in the middle of the batch, after the worker checked its claim and
      // reserved its first candidate; the board offers the shard again right after
      // it wakes, so the new holder starts while it still has candidates ahead and
      // is still at work while it could send two of them.
      name: 'the first worker freezes past its lease after reserving its first candidate, and the shard is offered again as it wakes',
      stall: { worker: 'outreach-0', ms: t.stallMs, after: 2 },
      // Two workers busy at once: a slow call on top multiplies the schedules past any
      // budget (one delay took the reference from 190 steps of work to 21 000;
      // 340 renewing every sixth of a lease). Renewals sent without waiting for
      // the last one's answer need about 1 250 since a claim may answer late.
      limits: { maxDelays: 0, maxWork: 3_000 },
      expect: idsOf('shard-16'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-16', at: 0 },
        { worker: 'outreach-1', job: 'shard-16', at: t.stallMs + 1 },
      ],
      tests: [
        { name: 'after a freeze mid-batch, each candidate still gets exactly one e-mail', property: 'exactlyOncePerJob' },
        { name: 'a worker that wakes mid-batch stops e-mailing a shard it no longer holds', property: 'stopsOnceLost' },
        { name: 'a worker that wakes mid-batch does not renew or release the new holder\'s claim', property: 'claimsRespected' },
      ],
    });
  }
  if (t.stallMs > t.leaseMs) {
    scenarios.push({
      // A freeze after the worker checked its claim and reserved its last candidate:
      // it wakes with nothing left to check, and finishes the batch while the shard,
      // offered again at any moment, may be another worker's.
      name: 'the first worker freezes past its lease after reserving its last candidate, and the shard is offered again at any moment',
      stall: { worker: 'outreach-0', ms: t.stallMs, after: 1 + shards['shard-14'].candidates.length },
      // The second worker arrives at every point of the first one's batch, so the
      // quick pace only: with the slow pace as well the reference needs 12 500
      // steps of work instead of 2 700.
      limits: { maxDelays: 0, paces: 1, maxWork: 6_000 },
      // The board offers an unsent shard again (README): a worker that wakes
      // with a candidate still ahead, finds its claim lost and stops leaves
      // that candidate to a later offer.
      redeliver: t.redeliver(3),
      expect: idsOf('shard-14'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', during: 0 },
      ],
      tests: [
        { name: 'after a freeze at the last candidate, each candidate still gets exactly one e-mail', property: 'exactlyOncePerJob' },
        { name: 'a worker that wakes at its last candidate does not release or delete the new holder\'s claim', property: 'claimsRespected' },
      ],
    });
  }
  if (t.pauses) {
    scenarios.push({
      name: 'a worker freezes at any point of its batch, past its lease, while the other keeps asking for the shard',
      pauses: [{ worker: 'outreach-0', ms: t.pauseMs }],
      redeliver: t.redeliver(5),
      expect: idsOf('shard-15'),
      // Every placement of the freeze, with every call at its quickest: slower calls
      // on top multiply the schedules past any budget (with one delay, the reference
      // had not finished after 150 000 steps of work; it needs 14 200 without,
      // 23 400 renewing every sixth of a lease, 36 900 in 407 schedules with
      // renewals fired and forgotten on a timer, and 71 800 with the slow pace
      // as well). The scenarios before this one freeze a worker past its lease
      // with both paces.
      limits: { maxDelays: 0, paces: 1, maxWork: 56_000, maxSchedules: 800 },
      deliveries: [
        { worker: 'outreach-0', job: 'shard-15', at: 0 },
        { worker: 'outreach-1', job: 'shard-15', at: t.leaseMs + t.leaseMs / 10 },
      ],
      tests: [
        { name: 'after a freeze at any point, each candidate still gets exactly one e-mail', property: 'exactlyOncePerJob' },
        { name: 'a worker that wakes from a freeze at any point stops e-mailing a shard it no longer holds', property: 'stopsOnceLost' },
        { name: 'a worker that wakes from a freeze at any point does not renew or release the new holder\'s claim', property: 'claimsRespected' },
      ],
    });
  }
  if (t.crashes) {
    scenarios.push({
      name: 'a worker dies right after claiming the shard',
      crash: { worker: 'outreach-0' },
      redeliver: t.redeliver(8),
      // The reference needs 5 300 steps of work; renewing every sixth of a
      // lease, 9 100; three more reads a candidate, 13 100 or more.
      limits: { maxWork: 16_000 },
      expect: idsOf('shard-14'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', at: t.leaseMs / 2 },
      ],
      tests: [
        { name: 'the shard of a worker that died is e-mailed by another worker once the lease lapses', property: 'exactlyOncePerJob' },
      ],
    });
  }
  scenarios.push({
    // The README: a store call may fail, having done nothing. Outreach-0's claim
    // fails on the shard's first offer; the board offers the shard again at its pace.
    name: 'the claim fails, and the shard is offered again',
    redeliver: t.redeliver(3),
    // One worker: a call slower than a timer on top of the failure fits the budget
    // (the reference needs 4 000 steps of work; renewing every sixth of a
    // lease, 7 200; three more reads a candidate, 10 100 or more).
    limits: { maxWork: 12_000 },
    faults: [
      { target: 'store', method: 'setIfAbsent', fail: (args, call) => String(args[0]).startsWith('claim:') && call.delivery?.attempt === 1 && 'store timed out' },
    ],
    expect: idsOf('shard-14'),
    deliveries: [
      { worker: 'outreach-0', job: 'shard-14', at: 0 },
    ],
    tests: [
      { name: 'a failed claim never costs a candidate an e-mail or sends one twice', property: 'exactlyOncePerJob' },
      { name: 'a worker whose claim failed once still releases its claim when done', property: 'claimsReleased' },
    ],
  });
  scenarios.push({
    // The README: any store call may fail, having done nothing, a write about
    // a candidate too: outreach-0's first one on the shard's first offer fails
    // (its reservation of the first candidate, in the reference). That may
    // cost the run, never the candidate its e-mail.
    name: 'a write about a candidate fails, and the shard is offered again',
    redeliver: t.redeliver(3),
    // The clock waits for calls in flight: the reference needs 160 steps of
    // work, a fix that reads its session before each reservation 5 000.
    limits: { maxDelays: 0, maxWork: 6_000 },
    faults: CANDIDATE_WRITES.map((method) => ({ target: 'store', method, fail: failFirstCandidateWrite })),
    expect: idsOf('shard-14'),
    deliveries: [
      { worker: 'outreach-0', job: 'shard-14', at: 0 },
    ],
    tests: [
      { name: 'a failed write about a candidate never costs it its e-mail or sends one twice', property: 'exactlyOncePerJob' },
    ],
  });
  scenarios.push({
    // The README: any store call may fail, having done nothing, a read too. A
    // failed write cuts the shard's first offer short; on its second, the
    // first read of what was sent fails. A failed read says nothing about
    // what was sent: it may cost the run, never a candidate its e-mail.
    name: 'a read of what was sent fails when the shard is offered again',
    redeliver: t.redeliver(3),
    // As above: the reference needs 185 steps of work, a fix that checks its
    // session before each reservation 5 600.
    limits: { maxDelays: 0, maxWork: 12_000 },
    faults: [
      ...CANDIDATE_WRITES.map((method) => ({ target: 'store', method, fail: failFirstCandidateWrite })),
      { target: 'store', method: 'get', fail: failFirstReadOnRetry },
    ],
    expect: idsOf('shard-14'),
    deliveries: [
      { worker: 'outreach-0', job: 'shard-14', at: 0 },
    ],
    tests: [
      { name: 'a failed read of what was sent never costs a candidate its e-mail or sends one twice', property: 'exactlyOncePerJob' },
    ],
  });
  scenarios.push({
    name: 'two layouts: a candidate in an old shard and a new shard worked at the same time',
    redeliver: t.redeliver(3),
    expect: idsOf('shard-07', 'shard-21'),
    // Two workers busy at once: a slow call on top multiplies the schedules past any
    // budget (with one delay, the reference had not finished after 60 000 steps of
    // work; it needs 2 700 without, at both paces).
    limits: { maxDelays: 0, maxWork: 6_000 },
    deliveries: [
      { worker: 'outreach-0', job: 'shard-07', at: 0 },
      { worker: 'outreach-1', job: 'shard-21', at: 0 },
    ],
    tests: [
      { name: 'a candidate who is in two shards gets exactly one e-mail', property: 'exactlyOncePerJob' },
    ],
  });
  scenarios.push({
    // The README: each worker has two polling slots that work shards at the same
    // time, in one process. Outreach-0's slots take shard-14 and, a moment later,
    // shard-03, whose first candidate (Priya) the first slot has already reserved;
    // shard-14's batch outlasts the lease, and outreach-1 is offered it just after
    // a first lease would have ended, with a candidate left to send. Whatever a fix
    // keeps per process (a heartbeat, the claim it holds, a lost flag, whom it
    // reserved) is shared here by two batches at once.
    name: 'one worker works two shards that share a candidate at once, and the other worker is offered the longer one',
    redeliver: t.redeliver(3),
    expect: idsOf('shard-14', 'shard-03'),
    // Calls at their quickest, where the second batch starts while the first is in
    // a lookup: the reference needs 87 steps of work, 1 500 renewing every quarter
    // of a lease. A slow call on top multiplies the orders of the two batches past
    // any budget (the reference, over 60 000 steps with one delay), and so does the
    // slow pace for a heartbeat whose period lines up with the slowest calls
    // (renewing every quarter of a lease, over 60 000; the reference, 354). The
    // scenarios above explore slow calls and both paces.
    limits: { maxDelays: 0, paces: 1, maxWork: 3_000 },
    deliveries: [
      { worker: 'outreach-0', job: 'shard-14', at: 0 },
      { worker: 'outreach-0', job: 'shard-03', at: t.leaseMs / 10 },
      { worker: 'outreach-1', job: 'shard-14', at: t.leaseMs + t.leaseMs / 10 },
    ],
    tests: [
      { name: 'a candidate in two shards one worker works at once gets exactly one e-mail', property: 'exactlyOncePerJob' },
      { name: 'a worker working two shards at once keeps both: no other worker e-mails their candidates', property: 'sendsOnlyByHolder' },
      { name: 'while one worker works two shards at once, nobody takes over, renews or deletes a claim another worker holds', property: 'claimsRespected' },
    ],
  });

  return {
    subject: {
      module: 'src/shards/shard-runner.js',
      factory: 'createShardRunner',
      method: 'runShard',
      deps: {
        workerId: { $: 'worker' },
        store: { $: 'remote', name: 'store', methods: STORE },
        provider: { $: 'remote', name: 'provider', methods: ['send'] },
        enrichment: { $: 'remote', name: 'enrichment', methods: ['lookup'] },
        clock: { $: 'clock' },
        config: { claimLeaseMs: t.leaseMs },
      },
      message: (job, attempt) => ({ campaignId: CAMPAIGN, shardId: job, attempt, ...shards[job] }),
      // The board offers every shard not recorded as sent again on its next poll
      // (README): only a shard that is done leaves the queue, whatever else a
      // worker answers (busy, or a claim it lost mid-batch).
      acked: (outcome) => outcome === 'sent' || outcome === 'already-sent',
    },
    effects: [
      {
        target: 'provider',
        method: 'send',
        label: 'e-mail',
        key: ([email]) => String(email?.candidateId),
        reply: (args, call) => ({ messageId: `pm_${call.id}` }),
        latencyMs: t.sendMs,
      },
      {
        target: 'enrichment',
        method: 'lookup',
        label: 'profile lookup',
        key: ([candidateId]) => `lookup:${candidateId}`,
        reply: ([candidateId]) => ({ candidateId, currentTitle: 'Staff Engineer', currentCompany: 'Quillpay', refreshedAt: '2026-04-14T08:12:00.000Z' }),
        latencyMs: t.lookupMs,
      },
    ],
    // Shard claims live under claim:<campaignId>:<shardId> (see the repository README).
    claimKeys: '^claim:',
    properties: { sendsOnlyByHolder, stopsOnceLost },
    limits: { maxLatencyMs: t.storeMs, maxDelays: 1, horizonMs: 120_000 },
    scenarios,
  };
};
