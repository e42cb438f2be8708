// One schedule of one scenario: the simulated world around the learner's workers.
//
// The world owns virtual time, the fake store, the lock service, the stateful
// services, the side effects, the queue's deliveries and the trace. At every step
// it lists the choices that may happen next (a call arriving where it goes, a
// renewal's answer at once or late, a read answering an older value, a timer or
// delivery firing, a worker pausing, the clock moving to when a slow call can
// complete or to when a key runs out under a call that can see it) and applies the
// one the explorer picks, relaying it to the process of the worker concerned.
// What a worker reports is checked (worker-protocol.mjs) before the world believes it.

import { FakeStore } from './store.mjs';
import { LockService } from './locks.mjs';
import { Services } from './services.mjs';
import { Trace, requestLabel } from './trace.mjs';
import { learnerText } from './describe.mjs';
import { noteDraws } from './draw-trace.mjs';
import { WorkerProtocol, ProtocolError, remotesOf } from './worker-protocol.mjs';
import { WorkerFailure } from './worker-link.mjs';
import { answer, LOCKS } from './calls.mjs';
import { absorbEvents } from './worker-events.mjs';
import { pauseChoices, takePause, wakeChoices, wakeWindowStops, takeWake, sendOnWake } from './pauses.mjs';
import { expiryStops } from './expiries.mjs';
import { lateChoices, heldAnswerChoices, heldAnswersBound, takeLate, releaseHeld, leaseCall } from './late-answers.mjs';
import { staleReadChoices } from './stale-reads.mjs';
import { DeliveryCounts, deliveryRecord, floatEnded, floatingChoices, mayOverlap } from './deliveries.mjs';
import { answersAfterTimers } from './ties.mjs';
import { attemptRequest, callerHasLimit, noAnswer, retryChoices } from './caller.mjs';

/** Characters of the learner's output kept per schedule. */
const OUTPUT_CHARS = 2000;

/** A claim key pattern that matches nothing: suites without claims. */
const NO_CLAIMS = /(?!)/;

/** The state of one schedule, driven step by step by the explorer. */
export class World {
  /** What the learner's code printed during this schedule, newest last. */
  output = '';
  /** Set when a property has seen enough: the schedule ends here, judged on what happened so far. */
  halted = false;
  #trace = new Trace();
  #perDelivery = new DeliveryCounts();
  /** Deliveries of each job so far: a queue numbers attempts per message, whichever worker gets them. */
  #attempts = new Map();

  /**
   * @param {object} suite the hidden suite (validated: subject, effects, limits)
   * @param {object} scenario the scenario being explored (validated: its limits, effects and services merged)
   * @param {import('./worker-pool.mjs').WorkerPool} pool the processes of the workers
   * @param {object[]} properties the properties judged in this schedule
   * @param {{ pace?: string, flip?: { worker: string, draw: number } | null }} [variant] pace: when
   *   calls become ready: within their latency range as delay bounding allows (any), or all at its minimum (quick) or
   *   maximum (slow), or one worker's at their maximum while the others' are at their minimum (`slow:<worker>`); flip: the one random draw of one worker (numbered from 0) that goes the other way in this
   *   schedule, if any (see draws.mjs)
   */
  constructor(suite, scenario, pool, properties, { pace = 'any', flip = null } = {}) {
    this.suite = suite;
    this.scenario = scenario;
    this.limits = scenario.limits;
    this.effects = scenario.effects;
    this.pool = pool;
    this.properties = properties;
    this.now = 0;
    this.delays = 0;
    this.pausesTaken = 0;
    this.pausesUsed = new Set();
    this.store = new FakeStore(suite.claimKeys ? new RegExp(suite.claimKeys) : NO_CLAIMS, scenario.store);
    this.locks = new LockService();
    this.services = new Services(scenario.services, scenario);
    this.pending = [];
    /** Answers of calls that took effect and are still on their way back (late-answers.mjs). */
    this.held = [];
    this.timers = new Map();
    this.crashed = new Map();
    /** How many things each worker took so far (store writes, locks, service writes): where crash and stall strike. */
    this.takes = new Map();
    this.frozen = new Map();
    /** When each frozen worker froze: the calls it made at that moment leave only when it wakes (sendOnWake). */
    this.frozenSince = new Map();
    /** Workers frozen until their leases ran out, whose wake is explored: worker → when the window opens. */
    this.wakeWindows = new Map();
    /** Which worker's call already watches which key's expiry (expiries.mjs): `worker|key@expiresAt`. */
    this.expiryWatchers = new Set();
    this.sends = [];
    this.failures = [];
    /** Store and lock calls that met a fault, by target.method:key, for the fault's count. */
    this.arrivals = new Map();
    this.errors = [];
    this.barrier = scenario.barrier === true ? this.effects[0] : scenario.barrier || null;
    this.barrierMet = !this.barrier;
    this.violations = new Map();
    this.deliveries = scenario.deliveries.map(deliveryRecord);
    this.calls = new Map();
    this.workers = [...new Set(this.deliveries.map((d) => d.worker))];
    /**
     * Whether a worker may handle two deliveries, or two attempts of one
     * (caller.mjs), at once: then its calls are attributed to their request.
     */
    this.attribute = mayOverlap(scenario.deliveries) || callerHasLimit(scenario);
    const remotes = remotesOf(suite.subject.deps);
    this.protocols = new Map(this.workers.map((w) => [w, new WorkerProtocol(w, remotes)]));
    /** Whether every call is at its slowest; else the one worker whose calls are (or null). */
    this.slow = pace === 'slow';
    this.slowWorker = pace.startsWith('slow:') ? pace.slice('slow:'.length) : null;
    // At one worker's slow pace the others' calls are at their quickest: no delays.
    if (this.slowWorker) this.delays = this.limits.maxDelays;
    this.flip = flip;
    /** Whether the draw of `flip` happened in this schedule. */
    this.flipped = false;
    /** How many random draws each worker's code made so far in this schedule. */
    this.draws = new Map();
  }

  /** Every step so far, in order. */
  get trace() {
    return this.#trace.steps;
  }

  /** Starts the schedule: a fresh instance of every worker, each in its own process. */
  async start() {
    const { subject } = this.suite;
    const reset = { t: 'reset', now: 0, module: subject.module, factory: subject.factory, deps: subject.deps, attribute: this.attribute };
    // Every worker's start is awaited, even after one failed, so no command is left in flight.
    const flipsOf = (worker) => (this.flip?.worker === worker ? [this.flip.draw] : []);
    const answers = await Promise.allSettled(this.workers.map((worker) => this.#send(worker, { ...reset, worker, flips: flipsOf(worker) })));
    const failed = answers.find((a) => a.status === 'rejected');
    if (failed) throw failed.reason;
    answers.forEach((a, i) => absorbEvents(this, this.workers[i], a.value));
  }

  /** True when every delivery has ended (acked, given up, or its worker crashed), each attempt's answer included. */
  finished() {
    return this.deliveries.every((d) => (d.state === 'done' && d.open.size === 0) || this.crashed.has(d.worker));
  }

  /** Whether a worker's calls take as long as their latency allows in this schedule (the slow paces). */
  slowFor(worker) {
    return this.slow || this.slowWorker === worker;
  }

  /** Whether a worker can act now: neither crashed nor frozen by a pause. */
  awake(worker) {
    return !this.crashed.has(worker) && !(this.frozen.get(worker) > this.now);
  }

  /** The choices that may happen next, in a stable order. */
  choices() {
    const live = this.pending.filter((op) => this.awake(op.worker));
    const waits = answersAfterTimers(this);
    const ready = live.filter((op) => op.readyAt <= this.now && this.#deliverable(op) && !waits(op))
      .map((op) => ({ id: op.id, kind: 'op', op }));
    // At the slow pace a lease call is offered only as a late answer while its
    // deadline is ahead (late-answers.mjs).
    const plain = ready.filter(({ op }) => !this.slowFor(op.worker) || op.deadline <= this.now || !leaseCall(op, this.services));
    const answers = heldAnswerChoices(this);
    const choices = [...plain, ...answers.now];
    const stops = [
      ...answers.stops,
      ...[...this.timers.entries()].filter(([, t]) => !this.crashed.has(t.worker))
        .map(([id, t]) => ({ id: `timer:${id}`, kind: 'timer', timerId: id, worker: t.worker, due: Math.max(t.due, this.frozen.get(t.worker) ?? 0) })),
      ...this.deliveries.filter((d) => d.state === 'waiting' || (d.state === 'floating' && floatEnded(this, d)))
        .map((d) => ({ id: `deliver:${d.index}:${d.attempt + 1}`, kind: 'deliver', delivery: d, due: d.state === 'waiting' ? d.due : this.now })),
      ...retryChoices(this),
      ...live.filter((op) => op.readyAt > this.now)
        .map((op) => ({ id: `ready:${op.id}`, kind: 'clock', worker: op.worker, due: op.readyAt })),
      ...[...this.frozen.entries()].filter(([w, until]) => until > this.now && !this.crashed.has(w))
        .map(([worker, until]) => ({ id: `wake:${worker}`, kind: 'clock', worker, due: until })),
      ...wakeWindowStops(this),
    ];
    const bound = this.#bound(live);
    const timed = stops.filter((c) => c.due <= bound);
    // An expiry is a point the clock may stop at on its way, not one it must:
    // moving on past it to the next event stays a choice of its own.
    const allExpiries = expiryStops(this);
    const expiries = allExpiries.filter((c) => c.due <= bound);
    const now = timed.filter((c) => c.due <= this.now && c.kind !== 'clock');
    if (now.length > 0) {
      choices.push(...now.sort((a, b) => (a.id < b.id ? -1 : 1)));
    } else {
      // Moving the clock is one choice, whatever waits at the new time; what then
      // happens at that time is offered event by event.
      const earliest = Math.min(...timed.map((c) => c.due));
      const expiry = Math.min(...expiries.map((c) => c.due));
      if (expiry < earliest) choices.push({ id: `advance:${expiry}`, kind: 'clock', due: expiry });
      if (timed.length > 0) choices.push({ id: `advance:${earliest}`, kind: 'clock', due: earliest });
    }
    // Waking a worker in its wake window is offered beside everything else,
    // the clock moving on included: it may wake now, or after any of it. So is
    // a delivery that may arrive at any moment while another is handled.
    choices.push(...wakeChoices(this), ...floatingChoices(this));
    if (!this.finished()) choices.push(...pauseChoices(this));
    choices.push(...lateChoices(this, ready), ...staleReadChoices(this, ready));
    const next = Math.min(...stops.map((c) => c.due), ...allExpiries.map((c) => c.due));
    choices.clockHolders = choices.some((c) => c.kind === 'clock') ? new Set() : this.#clockHolders(now, ready, answers.now, next);
    return choices;
  }

  /**
   * The choices the clock waits for when it may not move on to `next`, the
   * first time something is due: those due now, else the calls ready to answer
   * that must be answered before it (no delay left, or their latest answer is
   * earlier) and the late answers due now. The clock moves only once they are
   * taken (source-sets.mjs).
   */
  #clockHolders(due, ready, answers, next) {
    if (due.length > 0) return new Set(due.map((c) => c.id));
    if (next === Infinity) return new Set();
    const pinning = ready.filter(({ op }) => this.#latest(op, this.limits.maxDelays) < next);
    return new Set([...pinning, ...answers].map((c) => c.id));
  }

  /** Applies one choice and waits for the workers concerned to settle. */
  async take(choice) {
    if (choice.kind === 'op') return this.#arrive(choice.op);
    if (choice.kind === 'stale' && choice.late) {
      takeLate(this, choice.op, choice.read);
      return undefined;
    }
    if (choice.kind === 'stale') return this.#arrive(choice.op, choice.read);
    if (choice.kind === 'pause') {
      takePause(this, choice);
      return undefined;
    }
    if (choice.kind === 'wake') {
      takeWake(this, choice);
      return undefined;
    }
    if (choice.kind === 'late') {
      takeLate(this, choice.op);
      return undefined;
    }
    if (choice.kind === 'answer') return this.#command(choice.worker, releaseHeld(this, choice.held));
    if (choice.due > this.now && this.pending.some((op) => this.awake(op.worker) && op.readyAt <= this.now)) this.delays += 1;
    this.#advance(choice.due);
    if (choice.kind === 'clock') return undefined;
    if (choice.kind === 'timer') {
      const timer = this.timers.get(choice.timerId);
      this.timers.delete(choice.timerId);
      this.step(timer.worker, 'timer', '', `fires after ${timer.delay} ms`, { request: requestLabel(this.calls.get(timer.call)) });
      this.protocols.get(timer.worker).firing(timer.localId);
      await this.#command(timer.worker, { t: 'fire', id: timer.localId, now: this.now });
      return undefined;
    }
    const d = choice.delivery;
    if (d.state === 'running') noAnswer(this, d);
    const why = d.unanswered ? ` (no answer to the one before within ${this.scenario.redeliver.answerWithinMs} ms)` : '';
    d.unanswered = false;
    d.attempt += 1;
    d.state = 'running';
    d.open.set(d.attempt, this.now);
    d.messageAttempt = (this.#attempts.get(d.job) ?? 0) + 1;
    this.#attempts.set(d.job, d.messageAttempt);
    d.request = requestLabel(d);
    const callId = `${d.index}:${d.attempt}`;
    this.calls.set(callId, attemptRequest(d, callerHasLimit(this.scenario)));
    this.step(d.worker, 'receive', d.job, `delivery ${d.messageAttempt}${why}`, { request: d.request });
    const message = this.suite.subject.message(d.job, d.messageAttempt, d);
    this.protocols.get(d.worker).expectCall(callId);
    await this.#command(d.worker, { t: 'call', callId, method: this.suite.subject.method, args: [message], now: this.now });
    return undefined;
  }

  /**
   * The call id of the delivery a worker's call or timer is for: the one its
   * process named, or, where workers handle one delivery at a time, the one running.
   */
  requestOf(worker, call) {
    if (call !== null && call !== undefined) return call;
    const running = this.deliveries.find((d) => d.worker === worker && d.state === 'running');
    return running ? `${running.index}:${running.attempt}` : null;
  }

  /** Calls that cannot complete now although their worker is awake. */
  blocked() {
    return this.pending.filter((op) => this.awake(op.worker) && op.readyAt <= this.now && !this.#deliverable(op));
  }

  /** Records a property violation once, with the steps to highlight. */
  violate(property, message, steps = []) {
    if (this.violations.has(property)) return;
    this.violations.set(property, { message, highlight: new Set(steps.map((s) => s.step)) });
  }

  /** The trace as one property sees it: its own offending steps highlighted. */
  traceFor(property) {
    return this.#trace.highlighted(this.violations.get(property)?.highlight ?? new Set());
  }

  /**
   * Appends a step to the trace at the current time and returns it.
   * @param {object} [more] service, request, site, issued and value (see trace.mjs)
   */
  step(worker, operation, key, result, more = {}) {
    return this.#trace.add(this.now, { worker, operation, key, result, ...more });
  }

  /** Counts a call or timer of a delivery; past limits.maxCallsPerDelivery calls, boundedCalls ends the schedule. */
  countFor(delivery, what) {
    if (!delivery) return;
    const counts = this.#perDelivery.add(delivery, what);
    const max = this.limits.maxCallsPerDelivery;
    if (what === 'calls' && counts.calls > max && this.properties.some((p) => p.perCall)) {
      this.violate('boundedCalls', `${delivery.job} (${delivery.worker}) made more than ${max} store and service calls without finishing: `
        + 'it keeps going round (a livelock, or a retry loop that never gives up)');
      this.halted = true;
    }
  }

  /** The most calls and timers one delivery of this schedule made. */
  busiestDelivery() {
    return this.#perDelivery.busiest();
  }

  /** Moves the clock to `time`, with a step for each key or lease that runs out and each worker that wakes on the way. */
  #advance(time) {
    if (time <= this.now) return;
    const events = [
      ...this.store.expiring(this.now, time).map(([key, entry]) => ({ at: entry.expiresAt, worker: entry.writer, operation: 'expired', key,
        result: `${entry.claim ? `${entry.writer ? `${entry.writer}'s ` : ''}lease ran out` : 'its time to live ran out'} (${JSON.stringify(entry.value)})` })),
      ...[...this.frozen.entries()].filter(([w, until]) => until > this.now && until <= time && !this.crashed.has(w))
        .map(([worker, until]) => ({ at: until, worker, operation: 'wake', key: '', result: 'the process runs again' })),
    ].sort((a, b) => a.at - b.at || (a.operation < b.operation ? -1 : 1));
    for (const { at, worker, operation, key, result } of events) {
      this.now = at;
      this.step(worker, operation, key, result);
      if (operation === 'wake') sendOnWake(this, worker);
    }
    this.now = time;
  }

  /** The latest time the clock may move to without overtaking a call too long. */
  #bound(live) {
    const { maxDelays, horizonMs } = this.limits;
    let bound = Math.min(horizonMs, heldAnswersBound(this));
    for (const op of live) {
      if (op.readyAt <= this.now && !this.#deliverable(op)) continue;
      bound = Math.min(bound, this.#latest(op, maxDelays));
    }
    return Math.max(bound, this.now);
  }

  /**
   * The latest moment call `op` may take effect: its deadline while delays are
   * left, else when it is ready; at the slow pace, a lease call takes effect
   * when it is ready (late-answers.mjs).
   */
  #latest(op, maxDelays) {
    const held = this.delays >= maxDelays || (this.slowFor(op.worker) && leaseCall(op, this.services));
    return held ? Math.max(op.readyAt, this.now) : op.deadline;
  }

  #deliverable(op) {
    if (op.target === LOCKS) return this.locks.ready(op);
    if (!this.barrierMet && op.target === this.barrier.target && op.name === this.barrier.method) return false;
    return true;
  }

  /**
   * A call arrives where it goes; its worker gets the answer (unless it crashed on it).
   * @param {{ value: string | null, at: number }} [read] for a read, an older value it answers (stale-reads.mjs)
   */
  async #arrive(op, read) {
    this.pending = this.pending.filter((p) => p !== op);
    const { ok, value, error, crashed } = answer(this, op, { read });
    if (crashed) return;
    await this.#command(op.worker, { t: 'reply', id: op.localId, ok, value, error, now: this.now });
  }

  /** Sends a command to a worker and returns the events it reported, once checked. */
  async #send(worker, message) {
    const { message: reply, seq } = await this.pool.command(worker, message, this.limits.stepTimeoutMs);
    let accepted;
    try {
      accepted = this.protocols.get(worker).accept(reply, { seq, reset: message.t === 'reset' });
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.pool.discard(worker);
      throw new WorkerFailure('error', `${error.message}, which the harness cannot accept`);
    }
    const { events, output, draws } = accepted;
    if (output.text) this.output = (this.output + learnerText(output.text)).slice(-OUTPUT_CHARS);
    noteDraws(this, worker, draws);
    return events;
  }

  async #command(worker, message) {
    absorbEvents(this, worker, await this.#send(worker, message));
  }
}
