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

/**
 * The tests of the scenarios where blue dies right after its first, second,
 * third and fourth write: more writes than an approval and a housekeeping run
 * of one return need, wherever a fix puts them.
 */
const ORDINALS = ['first', 'second', 'third', 'fourth'];
const CRASH_TESTS = [
  ['an approval survives a worker dying right after its first write', 'nothing is announced early when a worker dies after its first write',
    'a worker dying after its first write does not cause a second refund', 'the approval is answered after a worker died at its first write'],
  ['an approval survives a worker dying right after its second write', 'nothing is announced early when a worker dies after its second write',
    'a worker dying after its second write does not cause a second refund', 'the approval is answered after a worker died at its second write'],
  ['an approval survives a worker dying right after its third write', 'nothing is announced early when a worker dies after its third write',
    'a worker dying after its third write does not cause a second refund', 'the approval is answered after a worker died at its third write'],
  ['an approval survives a worker dying right after its fourth write', 'nothing is announced early when a worker dies after its fourth write',
    'a worker dying after its fourth write does not cause a second refund', 'the approval is answered after a worker died at its fourth write'],
];

/** The returns the scenarios use. */
const RETURNS = {
  // The incident's return: inspected and approved by the agent.
  parka: { id: 'RMA-20417', orderId: 'FO-88213', customer: 'c-5521', amountCents: 12_900, status: 'requested' },
  // A second return waiting for approval.
  boots: { id: 'RMA-20431', orderId: 'FO-88307', customer: 'c-0093', amountCents: 3_450, status: 'requested' },
  // Approved and refunded in October: its event went out then.
  tent: { id: 'RMA-19876', orderId: 'FO-86110', customer: 'c-2274', amountCents: 7_800, status: 'approved', approvedBy: 'wh-tom', approvedAt: '2026-10-02T09:14:00.000Z' },
  // Cancelled by the customer last week.
  gloves: { id: 'RMA-20388', orderId: 'FO-88002', customer: 'c-6120', amountCents: 2_900, status: 'cancelled' },
};
const byId = Object.fromEntries(Object.values(RETURNS).map((r) => [r.id, r]));

/** How many housekeeping periods the bus refuses every publish for, where a scenario has it refuse. */
const OUTAGE_TICKS = 10;

/** Answers that end a command: the queue acknowledges it. */
const ANSWERS = ['approved', 'not-approvable', 'unknown-return', 'cancelled', 'too-late', 'done'];

// ---- the returns database -------------------------------------------------

const matches = (doc, fields = {}) => Object.entries(fields ?? {}).every(([k, v]) => doc?.[k] === v);
const copy = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** A refusal for a write whose condition does not hold (README: "ConditionFailed"). */
class Refused extends Error {}

/** The change one write makes, checked against `tables` without making it; throws Refused. */
function plan(tables, op) {
  const table = (name) => {
    if (typeof name !== 'string' || name === '') throw new TypeError('a table name is a non-empty string');
    tables[name] ??= new Map();
    return tables[name];
  };
  if (op?.put) {
    const { table: name, doc, ifAbsent } = op.put;
    const docs = table(name);
    if (typeof doc?.id !== 'string') throw new TypeError('put needs a document with a string id');
    if (ifAbsent && docs.has(doc.id)) throw new Refused(`${name}/${doc.id} already exists`);
    return [name, doc.id, copy(doc)];
  }
  if (op?.update) {
    const { table: name, id, set, expect } = op.update;
    const doc = table(name).get(id);
    if (!doc) throw new Refused(`${name}/${id} does not exist`);
    if (expect && !matches(doc, expect)) throw new Refused(`${name}/${id} does not match ${JSON.stringify(expect)}`);
    return [name, id, { ...doc, ...copy(set) }];
  }
  if (op?.delete) {
    const { table: name, id, expect } = op.delete;
    const docs = table(name);
    if (expect && !matches(docs.get(id), expect)) throw new Refused(`${name}/${id} does not match ${JSON.stringify(expect)}`);
    return [name, id, null];
  }
  throw new TypeError(`unknown write ${JSON.stringify(op && Object.keys(op))}`);
}

/**
 * Applies writes all or none; records "approved:<id>" for each return the
 * writes approve, so that properties know at which step it was approved.
 */
function apply(s, ops, call) {
  let changes;
  try {
    changes = ops.map((op) => plan(s.tables, op));
  } catch (error) {
    if (error instanceof Refused) return call.reject(`ConditionFailed: ${error.message}`);
    return call.reject(`ValidationError: ${error.message}`);
  }
  for (const [name, id, doc] of changes) {
    const before = s.tables[name].get(id);
    if (doc === null) s.tables[name].delete(id);
    else s.tables[name].set(id, doc);
    if (name === 'returns' && doc?.status === 'approved' && before?.status !== 'approved') call.record(`approved:${id}`);
  }
  return { ok: true };
}

const WRITES = ['put', 'update', 'delete', 'transactWrite'];

/** The returns database of the README with these returns in it. */
function returnsDb(returns, latencyMs) {
  return {
    state: () => ({ tables: { returns: new Map(returns.map((r) => [r.id, copy(r)])) } }),
    latencyMs,
    label: 'returns-db write',
    writes: WRITES,
    // A get or query may answer the tables as they stood when it took effect, earlier in its flight.
    reads: ['get', 'query'],
    view: (s) => ({ tables: s.tables }),
    methods: {
      get: (s, [table, id]) => copy(s.tables[table]?.get(id) ?? null),
      query: (s, [table, where]) => [...(s.tables[table]?.values() ?? [])].filter((d) => matches(d, where))
        .sort((a, b) => (a.id < b.id ? -1 : 1)).map(copy),
      put: (s, [table, doc, options], call) => apply(s, [{ put: { table, doc, ifAbsent: options?.ifAbsent } }], call),
      update: (s, [table, id, set, options], call) => apply(s, [{ update: { table, id, set, expect: options?.expect } }], call),
      delete: (s, [table, id, options], call) => apply(s, [{ delete: { table, id, expect: options?.expect } }], call),
      transactWrite: (s, [ops], call) => (Array.isArray(ops) ? apply(s, ops, call) : call.reject('ValidationError: transactWrite takes a list of writes')),
    },
    describe(method, args) {
      const what = (op) => {
        const [kind, a] = Object.entries(op ?? {})[0] ?? ['?', {}];
        return `${kind} ${a?.table}/${a?.doc?.id ?? a?.id}${a?.set ? ` ${JSON.stringify(a.set)}` : ''}`;
      };
      if (method === 'transactWrite') return `wrote ${(args[0] ?? []).map(what).join(' + ')}`;
      if (WRITES.includes(method)) return `wrote ${what({ [method]: { table: args[0], doc: args[1], id: args[1], set: args[2] } })}`;
      return undefined;
    },
  };
}

// ---- the event bus -------------------------------------------------------

/**
 * The event bus of the README. `timesOut(worker, n)` says whether the n-th
 * publish (from 0) of a worker times out after the bus kept the event: the
 * worker gets an error, refunds gets the event. Each publish the bus keeps is
 * recorded as "published:<index>".
 */
function eventBus(latencyMs, timesOut = () => false) {
  return {
    state: () => ({ events: [], publishes: {} }),
    latencyMs,
    label: 'event publish',
    writes: ['publish'],
    methods: {
      publish(s, [topic, event], call) {
        const n = s.publishes[call.worker] ?? 0;
        s.publishes[call.worker] = n + 1;
        if (typeof event?.id !== 'string' || event.id === '') return call.reject('ValidationError: an event needs a string id');
        s.events.push({ topic, event: copy(event), worker: call.worker });
        call.record(`published:${s.events.length - 1}`);
        if (timesOut(call.worker, n)) return call.reject('publish timed out after 2000 ms: the broker did not confirm');
        return { offset: s.events.length - 1 };
      },
    },
    describe: (method, [topic, event]) => `${topic} ${event?.type} ${event?.id}`,
  };
}

// ---- what must hold --------------------------------------------------------

/** The step at which each return was approved in this schedule. */
function approvals(world) {
  const at = new Map();
  for (const send of world.sends) {
    if (send.key.startsWith('approved:') && !at.has(send.key.slice(9))) at.set(send.key.slice(9), send.step);
  }
  return at;
}

/** Every return.approved event the bus kept, with the step that published it. */
function approvedEvents(world) {
  const steps = new Map(world.sends.filter((s) => s.key.startsWith('published:')).map((s) => [Number(s.key.slice(10)), s.step]));
  return world.services.state('bus').events
    .map((e, i) => ({ ...e, step: steps.get(i) }))
    .filter((e) => e.event?.type === 'return.approved');
}

const returnNow = (world, id) => world.services.state('db').tables.returns.get(id);
const money = (cents) => (cents / 100).toFixed(2);

/** Every return approved in the schedule has its return.approved event on the returns topic. */
const noLostRefund = {
  end(world) {
    const events = approvedEvents(world).filter((e) => e.topic === 'returns');
    for (const [id, step] of approvals(world)) {
      if (events.some((e) => e.event.returnId === id)) continue;
      const elsewhere = approvedEvents(world).find((e) => e.event.returnId === id);
      world.violate('noLostRefund',
        `${id} was approved at step ${step.step}, but no return.approved event for it reached the returns topic`
        + `${elsewhere ? ` (one went to "${elsewhere.topic}", which refunds does not read)` : ''}: `
        + `the refunds service will never pay the customer back ${money(byId[id].amountCents)}`, [step]);
      return;
    }
  },
};

/**
 * Every return.approved event is for a return approved in this schedule,
 * published after the approval was written, with the return's amount.
 */
const noEventWithoutApproval = {
  end(world) {
    const approved = approvals(world);
    for (const e of approvedEvents(world)) {
      const id = e.event.returnId;
      const ret = returnNow(world, id);
      const at = approved.get(id);
      let wrong = null;
      if (!at && ret?.status === 'approved') {
        wrong = `${id} was approved on ${ret.approvedAt?.slice(0, 10)} and refunded then, but a return.approved event for it was published again at step ${e.step.step} under the id "${e.event.id}": refunds pays it a second time`;
      } else if (!at) {
        wrong = `a return.approved event for ${id} was published at step ${e.step.step}, but ${id} was never approved (it is ${ret?.status ?? 'missing'}): refunds pays ${money(byId[id]?.amountCents ?? 0)} for goods the customer kept`;
      } else if (e.step.step < at.step) {
        wrong = `a return.approved event for ${id} was published at step ${e.step.step}, before the approval was written at step ${at.step}: refunds pays for an approval the database did not have yet`;
      } else if (e.event.amountCents !== ret.amountCents || e.event.orderId !== ret.orderId) {
        wrong = `the return.approved event for ${id} says order ${e.event.orderId}, ${money(e.event.amountCents ?? 0)}, but the return is order ${ret.orderId}, ${money(ret.amountCents)}`;
      }
      if (wrong) {
        world.violate('noEventWithoutApproval', wrong, [e.step, at].filter(Boolean));
        return;
      }
    }
  },
};

/** The refunds service pays once per event id: no return is announced under two ids. */
const oneRefundPerReturn = {
  end(world) {
    const ids = new Map();
    for (const e of approvedEvents(world).filter((x) => x.topic === 'returns')) {
      ids.set(e.event.returnId, [...(ids.get(e.event.returnId) ?? []), e]);
    }
    for (const [id, events] of ids) {
      const distinct = [...new Set(events.map((e) => e.event.id))];
      if (distinct.length <= 1) continue;
      world.violate('oneRefundPerReturn',
        `${id} was announced under ${distinct.length} different event ids (${distinct.join(', ')}): refunds ignores a repeated id, not a new one, so it pays ${money(byId[id].amountCents)} ${distinct.length} times`,
        events.map((e) => e.step));
      return;
    }
  },
};

/**
 * Every command a live worker answered was answered truthfully, none was left
 * unanswered, and a return that was approved and not cancelled ends approved.
 */
const answersTrue = {
  end(world) {
    const commands = world.deliveries.filter((d) => /^(approve|cancel)-/.test(d.job));
    for (const d of commands) {
      if (!d.acked && world.crashed.has(d.worker)) continue;
      const id = d.job.replace(/^(approve|cancel)-/, '');
      const status = returnNow(world, id)?.status;
      const truth = {
        approved: status === 'approved',
        'not-approvable': status !== 'approved',
        cancelled: status === 'cancelled',
        'too-late': status === 'approved',
      };
      let wrong = null;
      if (!d.acked) wrong = `${d.job} was never answered: its last delivery ended with ${JSON.stringify(d.outcome ?? 'nothing')}`;
      else if (truth[d.outcome] === false) wrong = `${d.job} was answered ${JSON.stringify(d.outcome)}, but ${id} is ${status}`;
      if (wrong) {
        world.violate('answersTrue', wrong, world.trace.filter((s) => s.operation === 'handle' && s.key === d.job));
        return;
      }
    }
    for (const job of new Set(commands.map((d) => d.job).filter((j) => j.startsWith('approve-')))) {
      const id = job.slice('approve-'.length);
      const cancelled = commands.some((d) => d.job === `cancel-${id}`);
      if (!cancelled && byId[id].status === 'requested' && returnNow(world, id)?.status !== 'approved') {
        world.violate('answersTrue', `the agent approved ${id}, but it is still ${returnNow(world, id)?.status} after every delivery of the command`);
        return;
      }
    }
  },
};

/**
 * Housekeeping is quiet when there is nothing to do: a housekeeping run that
 * starts after every command was answered and every approved return's event
 * was confirmed by the bus to a delivery that then ended well (answered, and
 * none of its calls failed) publishes nothing. Before that, a run may publish
 * an event again: its earlier publish may not have reached the bus, or not
 * have been recorded.
 */
const quietHousekeeping = {
  end(world) {
    const steps = world.trace;
    const endedWell = (request, after) => {
      const handled = steps.find((s) => s.operation === 'handle' && s.request === request && s.step > after);
      const failed = steps.some((s) => s.request === request && /^failed/.test(s.result));
      return handled && /^returned /.test(handled.result) && !failed ? handled.step : null;
    };
    const commands = world.deliveries.filter((d) => /^(approve|cancel)-/.test(d.job));
    if (commands.some((d) => !d.acked)) return;
    let quietFrom = Math.max(0, ...steps.filter((s) => s.operation === 'handle' && /^(approve|cancel)-/.test(s.key)).map((s) => s.step));
    for (const id of approvals(world).keys()) {
      const settled = approvedEvents(world)
        .filter((e) => e.topic === 'returns' && e.event.returnId === id && !/^failed/.test(e.step.result))
        .map((e) => endedWell(e.step.request, e.step.step)).filter((step) => step !== null);
      if (settled.length === 0) return;
      quietFrom = Math.max(quietFrom, Math.min(...settled));
    }
    for (const publish of steps.filter((s) => s.service === 'bus' && s.operation === 'publish' && s.request?.startsWith('tick-'))) {
      const received = steps.find((s) => s.operation === 'receive' && s.request === publish.request);
      if (!received || received.step <= quietFrom) continue;
      world.violate('quietHousekeeping',
        `${publish.request} started at step ${received.step}, when every command was answered and the bus had confirmed every event, `
        + `yet it published again (${publish.result}): housekeeping would send every event again every 10 s, for ever`, [received, publish]);
      return;
    }
  },
};

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
      services: world([RETURNS.parka, RETURNS.boots, RETURNS.tent, RETURNS.gloves]),
      redeliver,
      deliveries: [
        approve(RETURNS.boots, 'blue', 0),
        approve(RETURNS.parka, 'green', 0),
        // An agent scans old labels: the customer had cancelled one return,
        // and the other was approved and refunded in October.
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
    // throws is delivered once more, before the scheduler's next tick.
    const outageMs = OUTAGE_TICKS * tickMs;
    scenarios.push({
      name: `the bus refuses every publish for ${outageMs / 1000} s, while housekeeping runs`,
      limits: oneAtATime,
      services: world([RETURNS.parka, RETURNS.tent]),
      faults: [{ target: 'bus', method: 'publish', fail: (args, call) => call.at < outageMs && 'bus unavailable: the broker answered 503 (failing over)' }],
      redeliver: { everyMs: redeliveryMs, maxAttempts: 2 },
      deliveries: [
        approve(RETURNS.parka, 'blue', 0),
        tickAfter('blue', 0, 0),
        ...Array.from({ length: OUTAGE_TICKS - 1 }, (_, i) => tick('blue', i + 1, (i + 1) * tickMs)),
        tick('green', OUTAGE_TICKS, outageMs),
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

  // The README: a database write may fail, having written nothing. Every
  // write of blue's first attempt at each command fails, the approval's and
  // housekeeping's; the queue delivers them again.
  if (db.failures.length > 0) {
    const fail = (args, call) => call.worker === 'blue' && call.delivery?.attempt === 1
      && 'returns-db: primary failover in progress, nothing was written';
    scenarios.push({
      name: "the database fails every write of blue's first attempts",
      limits: oneAtATime,
      services: world([RETURNS.parka, RETURNS.tent]),
      redeliver,
      faults: WRITES.map((method) => ({ target: 'db', method, fail })),
      deliveries: [approve(RETURNS.parka, 'blue', 0), tickAfter('blue', 1, 0), tick('green', 2, lastTickAt)],
      tests: [
        { name: 'nothing is announced for an approval the database did not write', property: 'noEventWithoutApproval' },
        { name: 'an approval written on its second delivery is announced', property: 'noLostRefund' },
        { name: 'an approval the database failed is answered once it is written', property: 'answersTrue' },
      ],
    });
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
