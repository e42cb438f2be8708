// What a worker process may say, checked before the supervisor believes any of
// it. A worker only ever reports on itself: calls it makes (numbered op1, op2, …
// in each schedule), timers it sets (t1, t2, …), how the deliveries it was given
// ended, what its code printed, and how many random draws its code has made
// (a count that never goes down within a schedule). Anything else, out of
// order, oversized or of the wrong shape is a protocol error that fails the
// worker's tests.

/** Raised when a worker's message is not one the supervisor can accept. */
export class ProtocolError extends Error {}

const MAX_EVENTS = 10_000;
const MAX_DATA_CHARS = 64 * 1024;
const MAX_TEXT_CHARS = 4000;
const MAX_SITE_CHARS = 300;
const MAX_DELAY_MS = 2 ** 31 - 1;
const EVENT_KINDS = new Set(['op', 'timer', 'clear', 'settled', 'spawned', 'uncaught', 'exit', 'spin', 'stray']);

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value, limit = MAX_TEXT_CHARS) => typeof value === 'string' && value.length <= limit;
const isCount = (value) => Number.isSafeInteger(value) && value >= 0;

/** The size of a JSON value as text, or Infinity when it is not plain JSON data. */
function jsonSize(value) {
  try {
    return JSON.stringify(value)?.length ?? Infinity;
  } catch {
    return Infinity;
  }
}

/** Collects the remote targets and methods a suite's dependencies declare. */
export function remotesOf(deps, remotes = new Map()) {
  if (Array.isArray(deps)) {
    for (const item of deps) remotesOf(item, remotes);
  } else if (isObject(deps)) {
    if (deps.$ === 'remote') remotes.set(deps.name, new Set(deps.methods));
    else for (const value of Object.values(deps)) remotesOf(value, remotes);
  }
  return remotes;
}

/** The supervisor's expectations of one worker during one schedule. */
export class WorkerProtocol {
  #worker;
  #remotes;
  #ops = 0;
  #timers = 0;
  #calls = new Set();
  #given = new Set();
  #firing = null;
  #draws = 0;

  /**
   * @param {string} worker the worker's name
   * @param {Map<string, Set<string>>} remotes the remote targets and methods it may call
   */
  constructor(worker, remotes) {
    this.#worker = worker;
    this.#remotes = remotes;
  }

  /** The supervisor handed the worker a delivery to handle under `callId`. */
  expectCall(callId) {
    this.#calls.add(callId);
    this.#given.add(callId);
  }

  /** The supervisor is firing timer `id`: a repeating timer may re-arm under the same id. */
  firing(id) {
    this.#firing = id;
  }

  /**
   * Checks an answer to command `seq` and returns its events.
   * @param {unknown} message
   * @param {{ seq: number, reset: boolean }} command
   * @returns {{ events: object[], output: { text: string, bytes: number }, draws: number }} draws: the random draws so far
   * @throws {ProtocolError}
   */
  accept(message, command) {
    const fail = (why) => { throw new ProtocolError(`worker ${this.#worker} sent ${why}`); };
    if (!isObject(message) || message.t !== 'idle' || message.seq !== command.seq) fail('an answer to a step it was not given');
    const { events, output } = message;
    if (!Array.isArray(events) || events.length > MAX_EVENTS) fail('a malformed list of events');
    if (!isObject(output) || !isText(output.text) || !isCount(output.bytes)) fail('a malformed report of its output');
    if (!isCount(message.draws) || message.draws < this.#draws) fail('a malformed count of its random draws');
    for (const event of events) this.#check(event, command, fail);
    this.#firing = null;
    this.#draws = message.draws;
    return { events, output, draws: message.draws };
  }

  /** A call or timer is made for a delivery the worker was given, or for none (null). */
  #request(call, fail) {
    if (call !== null && !this.#given.has(call)) fail('work for a delivery it was not given');
  }

  #check(event, command, fail) {
    if (!isObject(event) || !EVENT_KINDS.has(event.k)) fail('an event of an unknown kind');
    switch (event.k) {
      case 'op': {
        if (event.id !== `op${this.#ops + 1}`) fail('a call numbered out of order');
        this.#ops += 1;
        const methods = this.#remotes.get(event.target);
        if (!methods || !methods.has(event.name)) fail('a call to a service it was not given');
        if (!Array.isArray(event.args) || jsonSize(event.args) > MAX_DATA_CHARS) fail('a call with malformed or oversized arguments');
        if (!isText(event.site, MAX_SITE_CHARS)) fail('a call without a readable place in the code');
        this.#request(event.call, fail);
        break;
      }
      case 'timer':
        this.#request(event.call, fail);
        if (event.id === `t${this.#timers + 1}`) this.#timers += 1;
        else if (event.id !== this.#firing) fail('a timer numbered out of order');
        if (!Number.isSafeInteger(event.delay) || event.delay < 0 || event.delay > MAX_DELAY_MS) fail('a timer with an invalid delay');
        break;
      case 'clear':
        if (typeof event.id !== 'string' || !/^t[1-9]\d*$/.test(event.id) || Number(event.id.slice(1)) > this.#timers) fail('a cancellation of a timer it never set');
        break;
      case 'settled':
        if (!this.#calls.has(event.callId)) fail('the end of a delivery it was not given, or ended it twice');
        this.#calls.delete(event.callId);
        if (typeof event.ok !== 'boolean') fail('a malformed end of a delivery');
        if (event.ok ? jsonSize(event.value) > MAX_DATA_CHARS : !isText(event.error)) fail('a malformed or oversized result');
        break;
      case 'spawned':
        if (!command.reset || typeof event.ok !== 'boolean' || (!event.ok && !isText(event.error))) fail('a malformed start-up report');
        break;
      case 'uncaught':
        if (!isText(event.error)) fail('a malformed error report');
        break;
      case 'exit':
        if (!Number.isSafeInteger(event.code)) fail('a malformed exit report');
        break;
      default:
        break;
    }
  }
}
