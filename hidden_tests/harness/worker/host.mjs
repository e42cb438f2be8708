// The process of one simulated worker: `node host.mjs <repoDir>`, with a socket
// on fd 3 to the supervisor. It may start before the repository is written (a
// spare, booted while the run waits for its payload): it reads nothing of it
// before its first `reset`, which also sets how much its code may print. It runs nothing but that worker's
// code, each schedule in a brand-new realm (see realm.mjs), and decides nothing:
// every store or service call becomes an event the supervisor answers, every
// timer an event the supervisor fires. After each command it lets the realm's
// microtasks and immediates run to completion and reports what happened.
//
// The process runs with frozen built-ins, without code generation from strings
// in its own realm, and (in containers) under Node's permission model.

import net from 'node:net';
import { AsyncLocalStorage } from 'node:async_hooks';
import { FrameReader, encodeFrame } from '../frames.mjs';
import { Realm, compileRuntime } from './realm.mjs';
import { ModuleGraph, ModuleSources, ModuleError } from './module-graph.mjs';
import { OUTPUT_LIMIT_EXIT, INTERNAL_ERROR_EXIT } from './exit-status.mjs';
const COMMAND_LIMIT_BYTES = 8 << 20;
const ARGS_CHARS = 64 * 1024;
const TEXT_CHARS = 2000;
const SITE_CHARS = 200;
const OUTPUT_TAIL_CHARS = 2000;
/** Immediates one step may run before its code is said to spin without end. */
const IMMEDIATE_LIMIT = 100_000;
/** How often (in schedules) the process reports its resident memory: reading it is not free. */
const RSS_EVERY = 16;

const realSetImmediate = setImmediate;
const [repoDir] = process.argv.slice(2);
/** How much the worker's code may print in all; every reset restates it. */
let outputLimit = 1 << 20;
const scripts = compileRuntime();
const sources = new ModuleSources(repoDir);
const channel = new net.Socket({ fd: 3, readable: true, writable: true });

/**
 * Which delivery (call id) the code running now works for. It follows every
 * promise, timer and immediate the delivery's code starts, so a call is
 * attributed to the request that made it even when a worker handles several
 * at once. Tracking it costs every promise a little, so it is on only in
 * schedules where a worker may handle more than one delivery at a time (the
 * reset says so); otherwise the supervisor knows the one delivery running.
 */
const requests = new AsyncLocalStorage();
let attributing = false;

/** Runs fn for `request` when calls are being attributed, else just runs it. */
function asRequest(request, fn) {
  return attributing ? requests.run(request ?? undefined, fn) : fn();
}
let now = 0;
let resets = 0;
let outputBytes = 0;
let strays = 0;
/** The command being handled: its events and output; null between commands. */
let current = null;
/** The schedule running in this process. */
let schedule = null;

const clip = (text, limit = TEXT_CHARS) => (text.length <= limit ? text : `${text.slice(0, limit - 1)}…`);

function emit(event) {
  if (current) current.events.push(event);
  else strays += 1;
}

/** What the realm's runtime may ask of the world, numbered per schedule. */
function sinkFor(state) {
  const request = () => (attributing ? requests.getStore() ?? null : null);
  return {
    get now() { return now; },
    request: () => request() ?? '',
    /** Counts a draw of the code's randomness; true when the reset asked for this one to go the other way. */
    draw() {
      const index = state.draws;
      state.draws += 1;
      return state.flips.has(index);
    },
    op(target, name, argsJson, site) {
      if (argsJson.length > ARGS_CHARS) return undefined;
      let args;
      try {
        args = JSON.parse(argsJson);
      } catch {
        return undefined;
      }
      if (!Array.isArray(args)) return undefined;
      state.ops += 1;
      const id = `op${state.ops}`;
      emit({ k: 'op', id, target, name, args, site: clip(site, SITE_CHARS), call: request() });
      return id;
    },
    timer(delay) {
      state.timers += 1;
      const id = `t${state.timers}`;
      state.timerOwners.set(id, request());
      emit({ k: 'timer', id, delay: Math.max(0, Math.floor(delay)), call: request() });
      return id;
    },
    rearm(id, delay) { emit({ k: 'timer', id, delay: Math.max(1, Math.floor(delay)), call: state.timerOwners.get(id) ?? null }); },
    clear(id) { emit({ k: 'clear', id }); },
    write(stream, text) {
      outputBytes += Buffer.byteLength(text);
      if (outputBytes > outputLimit) {
        process.stderr.write(`racecase worker: output limit of ${outputLimit} bytes exceeded\n`);
        process.exit(OUTPUT_LIMIT_EXIT);
      }
      if (!current) return;
      current.output = clip(current.output + text, OUTPUT_TAIL_CHARS * 2).slice(-OUTPUT_TAIL_CHARS);
      current.outputBytes += Buffer.byteLength(text);
    },
    settled(callId, ok, payload) {
      if (!ok) {
        emit({ k: 'settled', callId, ok: false, error: clip(payload) });
        return;
      }
      let value = null;
      try {
        value = payload.length > ARGS_CHARS ? clip(payload, 200) : JSON.parse(payload);
      } catch {
        value = null;
      }
      emit({ k: 'settled', callId, ok: true, value });
    },
    spawned(ok, error) {
      state.spawned = true;
      emit(ok ? { k: 'spawned', ok: true } : { k: 'spawned', ok: false, error: clip(error) });
    },
    uncaught(text) { emit({ k: 'uncaught', error: clip(text) }); },
    exit(code) {
      emit({ k: 'exit', code });
      state.realm.close();
    },
  };
}

/**
 * How long the process must have had nothing to do before it builds the next
 * schedule's realm ahead (on a core the supervisor and the other workers leave
 * idle): the supervisor talks to one worker at a time.
 */
const AHEAD_AFTER_MS = 2;
/** The next schedule's realm and linked module graph, built ahead: { key, built } or null. */
let ahead = null;
let aheadTimer;

/**
 * A brand-new realm with the worker's modules compiled and linked into it. No code
 * of the learner's has run in it: that starts with evaluation, at the reset that
 * takes it. So a realm built ahead is the same as one built at the reset.
 * @returns {Promise<{ state: object, linked?: import('node:vm').Module, error?: unknown }>}
 */
async function build(worker, module) {
  const state = { ops: 0, timers: 0, draws: 0, flips: new Set(), timerOwners: new Map(), spawned: false, realm: null, sink: null };
  state.sink = sinkFor(state);
  state.realm = new Realm({ scripts, worker, repoDir, module, sink: state.sink });
  try {
    return { state, linked: await new ModuleGraph(sources, state.realm).link(module) };
  } catch (error) {
    return { state, error };
  }
}

/** Builds the next schedule's realm once the process has been idle a moment. */
function buildAheadWhenIdle() {
  clearTimeout(aheadTimer);
  if (ahead || !schedule) return;
  const { worker, module } = schedule;
  aheadTimer = setTimeout(() => { ahead = { key: `${worker}\n${module}`, built: build(worker, module) }; }, AHEAD_AFTER_MS);
}

/** Starts a schedule: a new realm, a new module graph, a new instance of the worker. */
async function reset({ worker, module, factory, deps, attribute, flips, outputLimit: limit }) {
  if (Number.isSafeInteger(limit) && limit > 0) outputLimit = limit;
  schedule?.realm.close();
  schedule = null;
  attributing = attribute === true;
  if (!attributing) requests.disable();
  const key = `${worker}\n${module}`;
  const made = ahead?.key === key ? ahead.built : build(worker, module);
  ahead = null;
  const { state, linked, error } = await made;
  Object.assign(state, { worker, module, flips: new Set(Array.isArray(flips) ? flips.filter(Number.isSafeInteger) : []) });
  schedule = state;
  const { entry } = state.realm;
  if (error) {
    state.sink.spawned(false, error instanceof ModuleError ? error.message : `${module} could not be loaded`);
    return;
  }
  linked.evaluate().then(
    () => entry.start(linked.namespace, factory, JSON.stringify(deps ?? {})),
    (failure) => state.sink.spawned(false, entry.describe(failure)),
  );
}

const handlers = {
  reset,
  call: ({ callId, method, args }) => asRequest(callId, () => schedule.realm.entry.call(callId, method, JSON.stringify(args ?? []))),
  reply: ({ id, ok, value, error }) => schedule.realm.entry.reply(id, ok === true, JSON.stringify(value ?? null), String(error ?? '')),
  fire: ({ id }) => asRequest(schedule.timerOwners.get(id), () => schedule.realm.entry.fire(id)),
};

/**
 * Lets every microtask and immediate the command started run to completion:
 * after a real turn of the event loop every microtask has run; then the realm's
 * immediates run, each for the request that queued it, until none is left.
 */
async function settle() {
  let ran = 0;
  for (;;) {
    await new Promise((resolve) => { realSetImmediate(resolve); });
    if (!schedule) return;
    const { entry } = schedule.realm;
    let batch = 0;
    for (let owner = entry.nextImmediate(); owner !== null; owner = entry.nextImmediate()) {
      asRequest(owner || null, () => entry.runNextImmediate());
      batch += 1;
      if (++ran > IMMEDIATE_LIMIT) {
        emit({ k: 'spin' });
        return;
      }
    }
    if (batch === 0) return;
  }
}

async function handle(command) {
  current = { events: [], output: '', outputBytes: 0 };
  if (strays > 0) {
    current.events.push({ k: 'stray', count: strays });
    strays = 0;
  }
  if (typeof command.now === 'number') now = command.now;
  try {
    await handlers[command.t]?.(command);
  } catch {
    emit({ k: 'uncaught', error: 'the worker could not run this step' });
  }
  await settle();
  if (command.t === 'reset' && !schedule.spawned) {
    schedule.sink.spawned(false, `${command.module} did not finish loading: its top-level code waits for something that never happens here (a timer or I/O)`);
  }
  const answer = { t: 'idle', seq: command.seq, events: current.events, output: { text: current.output, bytes: current.outputBytes }, draws: schedule?.draws ?? 0 };
  if (command.t === 'reset' && ++resets % RSS_EVERY === 0) answer.rss = process.memoryUsage.rss();
  current = null;
  channel.write(encodeFrame(answer));
  buildAheadWhenIdle();
}

process.on('unhandledRejection', (reason) => {
  if (schedule) schedule.realm.entry.unhandled(reason);
});
process.on('uncaughtException', (error) => {
  process.stderr.write(`racecase worker: internal error: ${error?.message ?? error}\n`);
  process.exit(INTERNAL_ERROR_EXIT);
});

const reader = new FrameReader(COMMAND_LIMIT_BYTES);
let queue = Promise.resolve();
channel.on('data', (chunk) => {
  clearTimeout(aheadTimer);
  for (const command of reader.push(chunk)) queue = queue.then(() => handle(command));
});
channel.on('end', () => process.exit(0));
channel.on('error', () => process.exit(0));
channel.write(encodeFrame({ t: 'ready' }));
