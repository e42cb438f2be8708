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
//       describe(method, args, reply) { return '…'; },
//     },
//   }

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

  /** The labels of the services that have one, in the order they were declared. */
  labels() {
    return Object.values(this.#definitions).map((d) => d.label).filter((label) => typeof label === 'string');
  }

  /** The leases `worker` holds in every service that keeps leases: [{ key, until }]. */
  leasesOf(worker, now) {
    return Object.entries(this.#definitions).flatMap(([name, d]) => d.leasesOf?.(this.#states.get(name), worker, now) ?? []);
  }

  /** A service's latency range in ms, or undefined to use the suite's. */
  latency(target) {
    return this.#definitions[target]?.latencyMs;
  }

  /**
   * Answers one call.
   * @param {{ target: string, name: string, args: unknown[] }} op
   * @param {{ worker: string, job: string, at: number, id: string, record: (key: string) => void }} call
   * @returns {{ ok: boolean, value?: unknown, error?: string, result: string, wrote: boolean }} result is the
   *   trace's words; wrote says whether the call changed the service's state (see writes)
   */
  answer(op, call) {
    const definition = this.#definitions[op.target];
    const method = definition.methods?.[op.name];
    if (typeof method !== 'function') {
      const error = `${op.target}.${op.name}() is not available`;
      return { ok: false, error, result: `error: ${error}`, wrote: false };
    }
    const reply = method(this.#states.get(op.target), op.args ?? [], { ...call, reject: (message) => new Rejection(message) });
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
