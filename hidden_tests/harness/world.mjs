// One schedule of one scenario: the simulated world around the learner's workers.
//
// The world owns virtual time, the fake store, the side-effect tally, the queue's
// deliveries and the trace. At every step it lists the choices that may happen next
// (an operation arriving at the store, the next timer or delivery firing) and applies
// the one the explorer picks, relaying it to the child that runs the workers.

import { FakeStore } from './store.mjs';

/** How a worker dies in a crash scenario: right after its first successful write. */
const CLAIMING_WRITES = new Set(['set', 'setIfAbsent']);

const SHOWN_CHARS = 60;
const MESSAGE_CHARS = 300;

/** Cuts a learner-controlled message to a readable length. */
function clipMessage(text) {
  return text.length <= MESSAGE_CHARS ? text : `${text.slice(0, MESSAGE_CHARS - 1)}…`;
}

/** Formats a value the way the trace shows it, cut short when long. */
function show(value) {
  if (value === null || value === undefined) return 'null';
  const text = JSON.stringify(value) ?? String(value);
  return text.length <= SHOWN_CHARS ? text : `${text.slice(0, SHOWN_CHARS - 1)}…`;
}

/** The state of one schedule, driven step by step by the explorer. */
export class World {
  /**
   * @param {object} suite the hidden suite (subject, effect, limits)
   * @param {object} scenario the scenario being explored
   * @param {import('./child-link.mjs').ChildLink} link the child hosting the workers
   * @param {number} run schedule number, used to isolate module graphs
   * @param {object[]} properties the properties judged in this schedule
   */
  constructor(suite, scenario, link, run, properties) {
    this.properties = properties;
    this.suite = suite;
    this.scenario = scenario;
    this.link = link;
    this.run = run;
    this.now = 0;
    this.delays = 0;
    this.store = new FakeStore(new RegExp(suite.claimKeys));
    this.pending = [];
    this.timers = new Map();
    this.crashed = new Map();
    this.trace = [];
    this.sends = [];
    this.errors = [];
    this.barrierMet = !scenario.barrier;
    this.violations = new Map();
    this.deliveries = scenario.deliveries.map((d, index) => ({
      ...d, index, attempt: 0, state: d.after === undefined ? 'waiting' : 'blocked',
      due: d.at ?? 0, outcome: undefined,
    }));
    this.calls = new Map();
  }

  /** Starts the schedule: fresh workers in the child, one per distinct name. */
  async start() {
    const timeout = this.suite.limits.stepTimeoutMs;
    const { subject } = this.suite;
    this.#absorb(await this.link.command({
      t: 'reset',
      run: this.run,
      seed: this.run,
      workers: [...new Set(this.deliveries.map((d) => d.worker))],
      module: subject.module,
      factory: subject.factory,
      deps: subject.deps,
    }, timeout));
  }

  /** True when every delivery has ended (acked, given up, or its worker crashed). */
  finished() {
    return this.deliveries.every((d) => d.state === 'done' || this.crashed.has(d.worker));
  }

  /** The choices that may happen next, in a stable order. */
  choices() {
    const live = this.pending.filter((op) => !this.crashed.has(op.worker));
    const choices = live.filter((op) => this.#deliverable(op))
      .map((op) => ({ id: op.id, kind: 'op', op }));
    // A pending call may be overtaken by timers for up to maxLatencyMs, but only
    // maxDelays times per schedule (delay bounding): that keeps exploration finite
    // for retry loops while still letting a timer fire between a read and a write.
    const latency = this.delays < this.suite.limits.maxDelays ? this.suite.limits.maxLatencyMs : 0;
    const bound = Math.min(this.suite.limits.horizonMs, ...live.map((op) => op.issuedAt + latency));
    const timed = [
      ...[...this.timers.entries()].filter(([, t]) => !this.crashed.has(t.worker))
        .map(([id, t]) => ({ id: `timer:${id}`, kind: 'timer', timerId: id, due: t.due, worker: t.worker })),
      ...this.deliveries.filter((d) => d.state === 'waiting')
        .map((d) => ({ id: `deliver:${d.index}:${d.attempt + 1}`, kind: 'deliver', delivery: d, due: d.due })),
    ].filter((c) => c.due <= bound);
    if (timed.length > 0) {
      const earliest = Math.min(...timed.map((c) => c.due));
      choices.push(...timed.filter((c) => c.due === earliest).sort((a, b) => (a.id < b.id ? -1 : 1)));
    }
    return choices;
  }

  /** Applies one choice and waits for the child to settle. */
  async take(choice) {
    const timeout = this.suite.limits.stepTimeoutMs;
    if (choice.kind === 'op') return this.#deliver(choice.op, timeout);
    if (choice.due > this.now && this.pending.some((op) => !this.crashed.has(op.worker))) this.delays += 1;
    this.now = Math.max(this.now, choice.due);
    if (choice.kind === 'timer') {
      const timer = this.timers.get(choice.timerId);
      this.timers.delete(choice.timerId);
      this.#step(timer.worker, 'timer', '', `fires after ${timer.delay} ms`);
      this.#absorb(await this.link.command({ t: 'fire', id: choice.timerId, now: this.now }, timeout));
      return undefined;
    }
    const d = choice.delivery;
    d.attempt += 1;
    d.state = 'running';
    const callId = `${d.index}:${d.attempt}`;
    this.calls.set(callId, d);
    this.#step(d.worker, 'receive', d.job, `delivery ${d.attempt}`);
    const message = this.suite.subject.message(d.job, d.attempt);
    this.#absorb(await this.link.command({
      t: 'call', callId, worker: d.worker, method: this.suite.subject.method, args: [message], now: this.now,
    }, timeout));
    return undefined;
  }

  /** Describes why the schedule cannot go on, for a learner. */
  stuckReason() {
    const waiting = this.deliveries.filter((d) => d.state === 'running' && !this.crashed.has(d.worker));
    const blocked = this.pending.filter((op) => !this.crashed.has(op.worker) && !this.#deliverable(op));
    if (blocked.length > 0 && !this.barrierMet) {
      return `${blocked.map((op) => `${op.worker} waits in ${op.target}.${op.name}() for ${op.job}`).join('; ')}, `
        + 'but no other job ever reached the same step at the same time: two different jobs were never in flight together';
    }
    if (waiting.length > 0) {
      return `${waiting.map((d) => `${d.worker}'s handling of ${d.job}`).join(' and ')} never finished, `
        + 'and nothing it could wait for is pending (a deadlock, or async work the harness cannot see, '
        + 'such as real I/O)';
    }
    const never = this.deliveries.filter((d) => d.state !== 'done' && !this.crashed.has(d.worker));
    return `${never.map((d) => `${d.job} (${d.worker})`).join(', ')} never completed before ${this.suite.limits.horizonMs / 1000} s`;
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

  #deliverable(op) {
    if (op.target !== this.suite.effect.target || this.barrierMet) return true;
    return false;
  }

  async #deliver(op, timeout) {
    this.pending = this.pending.filter((p) => p !== op);
    let ok = true;
    let value = null;
    let error;
    let step;
    if (op.target === 'store') {
      const before = this.store.entry(op.args?.[0], this.now);
      try {
        value = this.store.apply(op.name, op.args ?? [], op.worker, this.now);
      } catch (e) {
        ok = false;
        error = e.message;
      }
      const late = op.issuedAt < this.now ? ` (in flight since ${op.issuedAt} ms)` : '';
      step = this.#step(op.worker, op.name, String(op.args?.[0] ?? ''), `${ok ? this.#describe(op, value, before) : `error: ${error}`}${late}`);
      if (ok) for (const property of this.properties) property.onStore?.(this, op, before, value, step);
      if (ok && this.scenario.crash?.worker === op.worker && CLAIMING_WRITES.has(op.name) && value !== false) {
        this.crashed.set(op.worker, this.now);
        this.#step(op.worker, 'crash', String(op.args?.[0] ?? ''), 'the worker process dies');
        return undefined;
      }
    } else if (op.target === this.suite.effect.target && op.name === this.suite.effect.method) {
      value = { providerMessageId: `pm-${op.id}` };
      step = this.#step(op.worker, op.name, op.job, `sent (${value.providerMessageId})`);
      this.sends.push({ job: op.job, worker: op.worker, step });
    } else {
      ok = false;
      error = `${op.target}.${op.name}() is not available`;
      this.#step(op.worker, op.name, '', `error: ${error}`);
    }
    this.#absorb(await this.link.command({ t: 'reply', id: op.id, ok, value, error, now: this.now }, timeout));
    return undefined;
  }

  #describe(op, value, before) {
    const [, written, options] = op.args ?? [];
    const ttl = options?.ttlMs ? `, expires in ${options.ttlMs} ms` : '';
    switch (op.name) {
      case 'get': return show(value);
      case 'set': return `wrote ${show(written)}${ttl}`;
      case 'setIfAbsent': return value ? `true: wrote ${show(written)}${ttl}` : `false: held by ${show(before?.value)}`;
      case 'compareAndDelete': return value ? `true: deleted ${show(written)}` : `false: holds ${show(before?.value ?? null)}`;
      case 'delete': return before ? `deleted ${show(before.value)}` : 'nothing to delete';
      default: return show(value);
    }
  }

  #step(worker, operation, key, result) {
    const step = { step: this.trace.length + 1, at: this.now, worker, operation, key, result };
    this.trace.push(step);
    return step;
  }

  #absorb(events) {
    for (const event of events) {
      switch (event.k) {
        case 'op': {
          const running = this.deliveries.find((d) => d.worker === event.worker && d.state === 'running');
          this.pending.push({ ...event, issuedAt: this.now, job: running?.job ?? '' });
          break;
        }
        case 'timer':
          this.timers.set(event.id, { worker: event.worker, due: event.due, delay: event.due - this.now });
          break;
        case 'clear':
          this.timers.delete(event.id);
          break;
        case 'settled':
          this.#settled(event);
          break;
        case 'spawned':
          if (!event.ok) this.errors.push(`the worker could not start: ${event.error}`);
          break;
        case 'uncaught':
          this.#step(event.worker, 'uncaught', '', clipMessage(event.error));
          break;
        default:
          break;
      }
    }
    this.#checkBarrier();
  }

  #settled(event) {
    const d = this.calls.get(event.callId);
    if (!d || this.crashed.has(d.worker)) return;
    const outcome = event.ok ? event.value : clipMessage(`threw ${event.error}`);
    this.#step(d.worker, 'handle', d.job, event.ok ? `returned ${show(event.value)}` : outcome);
    const acked = event.ok && this.suite.subject.acked(event.value);
    const retry = this.scenario.redeliver;
    if (!acked && retry && d.attempt < retry.maxAttempts) {
      d.state = 'waiting';
      d.due = this.now + retry.everyMs;
    } else {
      d.state = 'done';
      d.outcome = outcome;
      for (const next of this.deliveries) {
        if (next.after === d.index && next.state === 'blocked') {
          next.state = 'waiting';
          next.due = this.now + (next.delayMs ?? 0);
        }
      }
    }
  }

  #checkBarrier() {
    if (this.barrierMet) return;
    const effect = this.suite.effect.target;
    const jobs = new Set(this.pending.filter((op) => op.target === effect && !this.crashed.has(op.worker)).map((op) => op.job));
    if (jobs.size >= 2) this.barrierMet = true;
  }
}
