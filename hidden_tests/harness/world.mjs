// One schedule of one scenario: the simulated world around the learner's workers.
//
// The world owns virtual time, the fake store, the lock service, the side effects,
// the queue's deliveries and the trace. At every step it lists the choices that may
// happen next (a call arriving where it goes, a timer or delivery firing, the clock
// moving to when a slow call can complete) and applies the one the explorer picks,
// relaying it to the process of the worker concerned. What a worker reports is
// checked (worker-protocol.mjs) before the world believes it.

import { FakeStore } from './store.mjs';
import { LockService } from './locks.mjs';
import { describeCall, clipMessage, show, learnerText } from './describe.mjs';
import { WorkerProtocol, ProtocolError, remotesOf } from './worker-protocol.mjs';
import { WorkerFailure } from './worker-link.mjs';

/** Characters of the learner's output kept per schedule. */
const OUTPUT_CHARS = 2000;

/** The targets the world itself answers; every other remote is an effect. */
const STORE = 'store';
const LOCKS = 'locks';

/** Whether a completed call is the worker taking something: a crash or stall point. */
function isClaim(op, value) {
  if (op.target === LOCKS) return op.name !== 'release' && value === true;
  if (op.target !== STORE) return false;
  return ['set', 'setIfAbsent', 'compareAndSet', 'incrBy'].includes(op.name) && value !== false;
}

/** The state of one schedule, driven step by step by the explorer. */
export class World {
  /**
   * @param {object} suite the hidden suite (validated: subject, effects, limits)
   * @param {object} scenario the scenario being explored
   * @param {import('./worker-pool.mjs').WorkerPool} pool the processes of the workers
   * @param {object[]} properties the properties judged in this schedule
   */
  constructor(suite, scenario, pool, properties) {
    this.suite = suite;
    this.scenario = scenario;
    this.pool = pool;
    this.properties = properties;
    /** What the learner's code printed during this schedule, newest last. */
    this.output = '';
    this.now = 0;
    this.delays = 0;
    this.store = new FakeStore(new RegExp(suite.claimKeys), scenario.store);
    this.locks = new LockService();
    this.pending = [];
    this.timers = new Map();
    this.crashed = new Map();
    this.frozen = new Map();
    this.trace = [];
    this.sends = [];
    this.failures = [];
    this.errors = [];
    this.barrier = scenario.barrier === true ? suite.effects[0] : scenario.barrier || null;
    this.barrierMet = !this.barrier;
    this.violations = new Map();
    this.deliveries = scenario.deliveries.map((d, index) => ({
      ...d, index, attempt: 0, state: d.after === undefined ? 'waiting' : 'blocked',
      due: d.at ?? 0, outcome: undefined, acked: false,
    }));
    this.calls = new Map();
    this.workers = [...new Set(this.deliveries.map((d) => d.worker))];
    /** Set when a property has seen enough: the schedule ends here, judged on what happened so far. */
    this.halted = false;
    const remotes = remotesOf(suite.subject.deps);
    this.protocols = new Map(this.workers.map((w) => [w, new WorkerProtocol(w, remotes)]));
  }

  /** Starts the schedule: a fresh instance of every worker, each in its own process. */
  async start() {
    const { subject, limits } = this.suite;
    const reset = { t: 'reset', now: 0, module: subject.module, factory: subject.factory, deps: subject.deps };
    // Every worker's start is awaited, even after one failed, so no command is left in flight.
    const answers = await Promise.allSettled(this.workers.map((worker) => this.#send(worker, { ...reset, worker }, limits.stepTimeoutMs)));
    const failed = answers.find((answer) => answer.status === 'rejected');
    if (failed) throw failed.reason;
    answers.forEach((answer, i) => this.#absorb(this.workers[i], answer.value));
  }

  /** True when every delivery has ended (acked, given up, or its worker crashed). */
  finished() {
    return this.deliveries.every((d) => d.state === 'done' || this.crashed.has(d.worker));
  }

  /** Whether a worker can act now: neither crashed nor frozen by a stall. */
  awake(worker) {
    return !this.crashed.has(worker) && !(this.frozen.get(worker) > this.now);
  }

  /** The choices that may happen next, in a stable order. */
  choices() {
    const live = this.pending.filter((op) => this.awake(op.worker));
    const choices = live.filter((op) => op.readyAt <= this.now && this.#deliverable(op))
      .map((op) => ({ id: op.id, kind: 'op', op }));
    const timed = [
      ...[...this.timers.entries()].filter(([, t]) => !this.crashed.has(t.worker))
        .map(([id, t]) => ({ id: `timer:${id}`, kind: 'timer', timerId: id, worker: t.worker, due: Math.max(t.due, this.frozen.get(t.worker) ?? 0) })),
      ...this.deliveries.filter((d) => d.state === 'waiting')
        .map((d) => ({ id: `deliver:${d.index}:${d.attempt + 1}`, kind: 'deliver', delivery: d, due: d.due })),
      ...live.filter((op) => op.readyAt > this.now)
        .map((op) => ({ id: `ready:${op.id}`, kind: 'clock', worker: op.worker, due: op.readyAt })),
      ...[...this.frozen.entries()].filter(([w, until]) => until > this.now && !this.crashed.has(w))
        .map(([worker, until]) => ({ id: `wake:${worker}`, kind: 'clock', worker, due: until })),
    ].filter((c) => c.due <= this.#bound(live));
    const now = timed.filter((c) => c.due <= this.now && c.kind !== 'clock');
    if (now.length > 0) {
      choices.push(...now.sort((a, b) => (a.id < b.id ? -1 : 1)));
    } else if (timed.length > 0) {
      // Moving the clock is one choice, whatever waits at the new time; what then
      // happens at that time is offered event by event.
      const earliest = Math.min(...timed.map((c) => c.due));
      choices.push({ id: `advance:${earliest}`, kind: 'clock', due: earliest });
    }
    return choices;
  }

  /** Applies one choice and waits for the child to settle. */
  async take(choice) {
    const timeout = this.suite.limits.stepTimeoutMs;
    if (choice.kind === 'op') return this.#deliver(choice.op, timeout);
    if (choice.due > this.now && this.pending.some((op) => this.awake(op.worker) && op.readyAt <= this.now)) this.delays += 1;
    this.now = Math.max(this.now, choice.due);
    if (choice.kind === 'clock') return undefined;
    if (choice.kind === 'timer') {
      const timer = this.timers.get(choice.timerId);
      this.timers.delete(choice.timerId);
      this.#step(timer.worker, 'timer', '', `fires after ${timer.delay} ms`);
      this.protocols.get(timer.worker).firing(timer.localId);
      await this.#command(timer.worker, { t: 'fire', id: timer.localId, now: this.now }, timeout);
      return undefined;
    }
    const d = choice.delivery;
    d.attempt += 1;
    d.state = 'running';
    const callId = `${d.index}:${d.attempt}`;
    this.calls.set(callId, d);
    this.#step(d.worker, 'receive', d.job, `delivery ${d.attempt}`);
    const message = this.suite.subject.message(d.job, d.attempt, d);
    this.protocols.get(d.worker).expectCall(callId);
    await this.#command(d.worker, { t: 'call', callId, method: this.suite.subject.method, args: [message], now: this.now }, timeout);
    return undefined;
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
    const highlight = this.violations.get(property)?.highlight ?? new Set();
    return this.trace.map((s) => (highlight.has(s.step) ? { ...s, highlight: true } : { ...s }));
  }

  /** Appends a step to the trace and returns it. */
  step(worker, operation, key, result) {
    return this.#step(worker, operation, key, result);
  }

  /** The latest time the clock may move to without overtaking a call too long. */
  #bound(live) {
    const { maxDelays, horizonMs } = this.suite.limits;
    let bound = horizonMs;
    for (const op of live) {
      if (op.readyAt <= this.now && !this.#deliverable(op)) continue;
      const latest = this.delays < maxDelays ? op.deadline : Math.max(op.readyAt, this.now);
      bound = Math.min(bound, latest);
    }
    return Math.max(bound, this.now);
  }

  #deliverable(op) {
    if (op.target === LOCKS) return this.locks.ready(op);
    if (!this.barrierMet && op.target === this.barrier.target && op.name === this.barrier.method) return false;
    return true;
  }

  #effect(op) {
    return this.suite.effects.find((e) => e.target === op.target && e.method === op.name);
  }

  async #deliver(op, timeout) {
    this.pending = this.pending.filter((p) => p !== op);
    const key = String(op.args?.[0] ?? '');
    let ok = true;
    let value = null;
    let error;
    let step;
    const late = op.issuedAt < this.now ? ` (in flight since ${op.issuedAt} ms)` : '';
    if (op.target === STORE || op.target === LOCKS) {
      const before = op.target === STORE ? this.store.entry(op.args?.[0], this.now) : undefined;
      const holder = op.target === LOCKS ? this.locks.holder(op.args?.[0]) : undefined;
      try {
        value = op.target === STORE
          ? this.store.apply(op.name, op.args ?? [], op.worker, this.now)
          : this.locks.apply(op.name, op.args ?? [], op.worker);
      } catch (e) {
        ok = false;
        error = e.message;
      }
      const result = ok ? describeCall(op, value, before, holder) : `error: ${error}`;
      step = this.#step(op.worker, op.name, key, `${result}${late}`);
      if (ok && op.target === STORE) for (const property of this.properties) property.onStore?.(this, op, before, value, step);
    } else if (this.#effect(op)) {
      const effect = this.#effect(op);
      const d = this.#runningDelivery(op.worker);
      const call = { worker: op.worker, job: op.job, at: this.now, id: op.id, delivery: d };
      const effectKey = String(effect.key ? effect.key(op.args ?? [], call) : op.job);
      call.count = this.sends.filter((s) => s.key === effectKey).length;
      call.failures = this.failures.filter((k) => k === effectKey).length;
      const failure = effect.fail?.(op.args ?? [], call);
      if (failure) {
        ok = false;
        error = String(failure);
        this.failures.push(effectKey);
        this.#step(op.worker, op.name, effectKey, `failed: ${clipMessage(error)}${late}`);
      } else {
        value = effect.reply ? effect.reply(op.args ?? [], call) : { id: `${op.target}-${op.id}` };
        step = this.#step(op.worker, op.name, effectKey, `done ${show(value)}${late}`);
        this.sends.push({ key: effectKey, job: op.job, worker: op.worker, target: op.target, method: op.name, args: op.args, step, at: this.now });
      }
    } else {
      ok = false;
      error = `${op.target}.${op.name}() is not available`;
      this.#step(op.worker, op.name, key, `error: ${error}`);
    }
    if (ok && isClaim(op, value)) {
      if (this.scenario.crash?.worker === op.worker && !this.crashed.has(op.worker)) {
        this.crashed.set(op.worker, this.now);
        this.locks.releaseAll(op.worker);
        this.#step(op.worker, 'crash', key, 'the worker process dies');
        return undefined;
      }
      const stall = this.scenario.stall;
      if (stall?.worker === op.worker && !this.frozen.has(op.worker)) {
        this.frozen.set(op.worker, this.now + stall.ms);
        this.#step(op.worker, 'stall', key, `the worker freezes for ${stall.ms} ms`);
      }
    }
    await this.#command(op.worker, { t: 'reply', id: op.localId, ok, value, error, now: this.now }, timeout);
    return undefined;
  }

  /** Sends a command to a worker and returns the events it reported, once checked. */
  async #send(worker, message, timeout) {
    const { message: answer, seq } = await this.pool.command(worker, message, timeout);
    let accepted;
    try {
      accepted = this.protocols.get(worker).accept(answer, { seq, reset: message.t === 'reset' });
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.pool.discard(worker);
      throw new WorkerFailure('error', `${error.message}, which the harness cannot accept`);
    }
    const { events, output } = accepted;
    if (output.text) this.output = (this.output + learnerText(output.text)).slice(-OUTPUT_CHARS);
    return events;
  }

  async #command(worker, message, timeout) {
    this.#absorb(worker, await this.#send(worker, message, timeout));
  }

  /** The most calls and timers one delivery of this schedule made. */
  busiestDelivery() {
    let calls = 0;
    let timers = 0;
    for (const counts of this.#perDelivery.values()) {
      calls = Math.max(calls, counts.calls);
      timers = Math.max(timers, counts.timers);
    }
    return { calls, timers };
  }

  #perDelivery = new Map();

  #count(delivery, what) {
    if (!delivery) return;
    const key = `${delivery.index}:${delivery.attempt}`;
    const counts = this.#perDelivery.get(key) ?? { calls: 0, timers: 0 };
    counts[what] += 1;
    this.#perDelivery.set(key, counts);
    const max = this.suite.limits.maxCallsPerDelivery;
    if (what === 'calls' && counts.calls > max && this.properties.some((p) => p.perCall)) {
      this.violate('boundedCalls', `${delivery.job} (${delivery.worker}) made more than ${max} store and service calls without finishing: `
        + 'it keeps going round (a livelock, or a retry loop that never gives up)');
      this.halted = true;
    }
  }

  #runningDelivery(worker) {
    return this.deliveries.find((d) => d.worker === worker && d.state === 'running');
  }

  #step(worker, operation, key, result) {
    const step = { step: this.trace.length + 1, at: this.now, worker, operation, key, result };
    this.trace.push(step);
    return step;
  }

  #latency(op) {
    const effect = this.#effect(op);
    const [min, max] = effect?.latencyMs ?? [0, this.suite.limits.maxLatencyMs];
    return { min, max: Math.max(min, max) };
  }

  /** Applies what a worker reported after a command. */
  #absorb(worker, events) {
    for (const event of events) {
      switch (event.k) {
        case 'op': {
          const { min, max } = this.#latency(event);
          const running = this.#runningDelivery(worker);
          const job = running?.job ?? '';
          this.#count(running, 'calls');
          const { id: localId, target, name, args } = event;
          this.pending.push({ id: `${worker}.${localId}`, localId, worker, target, name, args, issuedAt: this.now, readyAt: this.now + min, deadline: this.now + max, job });
          break;
        }
        case 'timer':
          this.#count(this.#runningDelivery(worker), 'timers');
          this.timers.set(`${worker}.${event.id}`, { worker, localId: event.id, due: this.now + event.delay, delay: event.delay });
          break;
        case 'clear':
          this.timers.delete(`${worker}.${event.id}`);
          break;
        case 'settled':
          this.#settled(event);
          break;
        case 'spawned':
          if (!event.ok) this.errors.push(`the worker could not start: ${learnerText(event.error)}`);
          break;
        case 'uncaught':
          this.#step(worker, 'uncaught', '', clipMessage(learnerText(event.error)));
          break;
        case 'exit': {
          const d = this.#runningDelivery(worker);
          throw new WorkerFailure('error', `${worker} called process.exit(${event.code})${d ? ` while handling ${d.job}` : ''}: `
            + 'a worker must finish its work and return, not end its process');
        }
        case 'spin':
          throw new WorkerFailure('error', `${worker}'s code kept scheduling setImmediate() callbacks and never became idle`);
        case 'stray':
          throw new WorkerFailure('error', `${worker}'s code ran outside any step the harness controls (work it cannot see, such as real I/O)`);
        default:
          break;
      }
    }
    this.#checkBarrier();
  }

  #settled(event) {
    const d = this.calls.get(event.callId);
    if (!d || this.crashed.has(d.worker)) return;
    const outcome = event.ok ? event.value : clipMessage(`threw ${learnerText(event.error)}`);
    this.#step(d.worker, 'handle', d.job, event.ok ? `returned ${show(event.value)}` : outcome);
    const acked = event.ok && this.suite.subject.acked(event.value);
    const retry = this.scenario.redeliver;
    d.outcome = outcome;
    d.acked = acked;
    if (!acked && retry && d.attempt < retry.maxAttempts) {
      d.state = 'waiting';
      d.due = this.now + retry.everyMs;
      return;
    }
    d.state = 'done';
    for (const next of this.deliveries) {
      if (next.after === d.index && next.state === 'blocked') {
        next.state = 'waiting';
        next.due = this.now + (next.delayMs ?? 0);
      }
    }
  }

  #checkBarrier() {
    if (this.barrierMet) return;
    const { target, method } = this.barrier;
    const jobs = new Set(this.pending
      .filter((op) => op.target === target && op.name === method && !this.crashed.has(op.worker))
      .map((op) => op.job));
    if (jobs.size >= 2) this.barrierMet = true;
  }
}
