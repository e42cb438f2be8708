// Stateful scripted services: remote dependencies that keep state across calls
// within one schedule (a storage that checks fencing tokens, a rate-limited
// provider, a database with transactions, a message broker). A suite declares
// them under `services`; each call is a scheduling point like any other, and
// the state is fresh in every schedule and visible to properties as
// world.services.state(name).
//
//   services: {
//     storage: {
//       state: (scenario) => ({ files: {} }),          // fresh per schedule
//       methods: {
//         write(state, [file, data, token], call) {      // → the reply
//           if (token < state.highest) return call.reject('stale token');
//           ...
//         },
//       },
//       latencyMs: [0, 1000],
//       label: 'storage write',                         // what one recorded call is called in messages
//       writes: ['write'],                              // or (method, args, reply) => boolean: fault points
//       reads: ['read'],                                // calls that may answer as the state stood earlier
//       view: (state) => ({ files: state.files }),     // the part of the state those calls read
//       changesAt: [1_000],                             // when their answers change on their own (call.at)
//       describe(method, args, reply) { return '…'; },
//       key: (method, args) => '…',                   // what a call is about, when its first argument is not a name
//       touches: (method, args) => ['…'] or null,     // the parts of the state a call reads or writes (null: any)
//       leasesOf: (state, worker, now) => [{ key, until, ttlMs }], // the leases a worker holds (pauses wait for them)
//       leaseMethods: ['acquire'],                      // calls that take or renew a lease (late-answers.mjs)
//     },
//   }

import { isDeepStrictEqual } from 'node:util';

/** A call's refusal: the worker's promise rejects with `message`. */
export class Rejection {
  /** @param {string} message */
  constructor(message) {
    this.message = String(message);
  }
}

/** The services of one schedule, with their state. */
export class Services {
  #definitions;
  #states = new Map();
  /** For each service with reads: every change of its view, in order, with when it happened and the view it replaced. */
  #changes = new Map();

  /**
   * @param {Record<string, object>} definitions the suite's (and scenario's) services
   * @param {object} scenario handed to each service's state() to set it up
   */
  constructor(definitions, scenario) {
    this.#definitions = definitions ?? {};
    for (const [name, definition] of Object.entries(this.#definitions)) {
      this.#states.set(name, definition.state ? definition.state(scenario) : {});
    }
  }

  /** Whether `target` is one of the services. */
  has(target) {
    return Object.hasOwn(this.#definitions, target);
  }

  /** The state of service `name` in this schedule. */
  state(name) {
    return this.#states.get(name);
  }

  /** What one call of service `target` that it records (call.record) is called, e.g. "charge", if it says. */
  label(target) {
    return this.#definitions[target]?.label;
  }

  /** What a call of `method` on service `target` is about, as the service reads its arguments, if it says. */
  key(target, method, args) {
    return this.#definitions[target]?.key?.(method, args);
  }

  /** The labels of the services that have one, in the order they were declared. */
  labels() {
    return Object.values(this.#definitions).map((d) => d.label).filter((label) => typeof label === 'string');
  }

  /** The leases `worker` holds in every service that keeps leases: [{ key, until }]. */
  leasesOf(worker, now) {
    return Object.entries(this.#definitions).flatMap(([name, d]) => d.leasesOf?.(this.#states.get(name), worker, now) ?? []);
  }

  /** Whether `method` of service `target` takes or renews a lease (its `leaseMethods`). */
  leaseMethod(target, method) {
    return this.#definitions[target]?.leaseMethods?.includes(method) === true;
  }

  /**
   * The parts of service `target`'s state a call of `method` with `args` reads or
   * writes, as the service names them (its `touches`): two calls that share no
   * part commute. Undefined when the service does not say, when the call may
   * touch any part (null), or when it is one of the service's reads, which may
   * answer from an earlier view of the whole state: then it depends on every
   * call of the service.
   * @returns {string[] | undefined}
   */
  touches(target, method, args) {
    if (this.reads(target, method)) return undefined;
    const parts = this.#definitions[target]?.touches?.(method, args ?? []);
    return Array.isArray(parts) ? parts.map(String) : undefined;
  }

  /** A service's latency range in ms, or undefined to use the suite's. */
  latency(target) {
    return this.#definitions[target]?.latencyMs;
  }

  /** Whether a call of `method` on service `target` is a read that may answer as the service stood earlier (its `reads`). */
  reads(target, method) {
    return this.#definitions[target]?.reads?.includes(method) === true;
  }

  /**
   * The views a read of service `target` sent at `sentAt` could have met at some
   * moment from `from` (at least `sentAt`) to `now`, other than the one it meets
   * now, each with the first such moment, oldest first. As for the store's reads
   * (FakeStore.valuesSince), only changes made after the moment it was sent
   * count: the calls that changed its view, and the moments its answers change
   * on their own (its `changesAt`), where a read's answer differs by when it
   * took effect even though its view is the same.
   * @returns {{ view: object, at: number }[]}
   */
  viewsSince(target, sentAt, from, now) {
    const definition = this.#definitions[target];
    const current = definition.view?.(this.#states.get(target));
    const changes = (this.#changes.get(target) ?? []).filter((c) => c.at > sentAt && c.at >= from);
    const turns = (definition.changesAt ?? []).filter((t) => t > Math.max(sentAt, from) && t <= now);
    // A view holds from `from`, or from the change before it, until its own change
    // (the last one until now); a turn starts a new answer within whichever holds.
    const starts = [from, ...changes.map((c) => c.at)];
    const viewFrom = (i) => (i < changes.length ? changes[i].before : current);
    const moments = [
      ...starts.map((at, i) => ({ at, view: viewFrom(i) })),
      ...turns.map((at) => ({ at, view: viewFrom(starts.findLastIndex((start) => start <= at)) })),
    ].sort((x, y) => x.at - y.at);
    const turnsBy = (at) => turns.filter((t) => t <= at).length;
    const seen = [{ view: current, turns: turnsBy(now) }];
    const views = [];
    for (const { at, view } of moments) {
      const met = { view, turns: turnsBy(at) };
      if (seen.some((s) => s.turns === met.turns && isDeepStrictEqual(s.view, met.view))) continue;
      seen.push(met);
      views.push({ view, at });
    }
    return views;
  }

  /**
   * Answers one call.
   * @param {{ target: string, name: string, args: unknown[] }} op
   * @param {{ worker: string, job: string, at: number, id: string, record: (key: string) => void }} call
   * @param {{ view: object, at: number }} [read] for one of the service's reads, an earlier view it answers
   *   from, as the service stood at `at` (viewsSince); the call's `at` is then that moment
   * @returns {{ ok: boolean, value?: unknown, error?: string, result: string, wrote: boolean }} result is the
   *   trace's words; wrote says whether the call changed the service's state (see writes)
   */
  answer(op, call, read) {
    const definition = this.#definitions[op.target];
    const method = definition.methods?.[op.name];
    if (typeof method !== 'function') {
      const error = `${op.target}.${op.name}() is not available`;
      return { ok: false, error, result: `error: ${error}`, wrote: false };
    }
    const state = this.#states.get(op.target);
    const reading = this.reads(op.target, op.name);
    // A read sees the state with an earlier view laid over it, if it answers from one, and still
    // records into the state's other parts (its logs); its top-level fields are frozen, answered
    // from an earlier view or not, so a read that assigns one fails in every schedule alike.
    const seen = reading ? Object.freeze({ ...state, ...(read ? structuredClone(read.view) : {}) }) : state;
    const watched = definition.view && !reading;
    const before = watched ? structuredClone(definition.view(state)) : undefined;
    // A copy that keeps the call's getters (its effects are counted only when read).
    const given = Object.defineProperties({}, Object.getOwnPropertyDescriptors(call));
    const reply = method(seen, op.args ?? [], Object.assign(given, read ? { at: read.at } : {}, { reject: (message) => new Rejection(message) }));
    if (watched && !isDeepStrictEqual(before, definition.view(state))) {
      if (!this.#changes.has(op.target)) this.#changes.set(op.target, []);
      this.#changes.get(op.target).push({ at: call.at, before });
    }
    if (reply instanceof Rejection) return { ok: false, error: reply.message, result: `failed: ${reply.message}`, wrote: false };
    const value = reply === undefined ? null : reply;
    const described = definition.describe?.(op.name, op.args ?? [], value);
    return { ok: true, value, result: described ?? undefined, wrote: wrote(definition, op.name, op.args ?? [], value) };
  }
}

/**
 * Whether an accepted call changed the service's state, as a store write or a
 * lock taken does: a point where a scenario's crash or stall may strike. A
 * service says which calls write with `writes`, a list of method names (every
 * accepted call of those) or a function (method, args, reply) → boolean.
 */
function wrote(definition, method, args, reply) {
  const { writes } = definition;
  if (typeof writes === 'function') return Boolean(writes(method, args, reply));
  return Array.isArray(writes) && writes.includes(method);
}
