// The child process of a hidden run: it hosts the learner's workers and nothing else.
//
// It decides nothing. Every store or provider call a worker makes becomes an event sent
// to the supervisor, which chooses when it arrives and what it returns; every timer a
// worker starts becomes an event the supervisor fires when it chooses. After each
// command the relay lets all microtasks settle and reports what happened.

import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { installDeterminism } from './determinism.mjs';
import { ModuleGraphs } from './module-graph.mjs';

const realSetImmediate = globalThis.setImmediate;
const send = process.send.bind(process);
const repoDir = path.resolve(process.argv[2] ?? '.');

const graphs = new ModuleGraphs(repoDir);

const currentWorker = new AsyncLocalStorage();
let now = 0;
let events = [];
let run = 0;
const workers = new Map();
const pendingOps = new Map();
const timers = new Map();
const counters = new Map();

/** Next per-worker sequence number: op and timer ids are stable across schedules. */
function nextId(worker, kind) {
  const key = `${worker}/${kind}`;
  const n = (counters.get(key) ?? 0) + 1;
  counters.set(key, n);
  return `${worker}.${kind}${n}`;
}

const clock = {
  now: () => now,
  addTimer(ms, fire, repeat) {
    const worker = currentWorker.getStore() ?? 'system';
    const delay = Math.max(0, Math.floor(Number(ms) || 0));
    const id = nextId(worker, 't');
    const handle = {
      ref() { return handle; }, unref() { return handle; }, hasRef() { return true; },
      refresh() { return handle; }, [Symbol.toPrimitive]() { return id; },
    };
    timers.set(id, { worker, fire, repeat, delay, handle, run });
    events.push({ k: 'timer', id, worker, due: now + delay });
    return handle;
  },
  clearTimer(handle) {
    for (const [id, timer] of timers) {
      if (timer.handle === handle || id === handle) {
        timers.delete(id);
        events.push({ k: 'clear', id });
      }
    }
  },
};
const determinism = installDeterminism(clock);

/** Describes a thrown value without leaking anything but its name and message. */
function describeError(error) {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return `thrown value: ${String(error)}`;
}

/** Copies a value through JSON, the only shape that crosses to the supervisor. */
function plain(value) {
  if (value === undefined) return null;
  try { return JSON.parse(JSON.stringify(value)); } catch { return String(value); }
}

/** A stand-in for a remote dependency: each method call is an event for the supervisor. */
function remote(worker, target, methods) {
  const proxy = {};
  for (const name of methods) {
    proxy[name] = (...args) => new Promise((resolve, reject) => {
      const id = nextId(worker, 'op');
      pendingOps.set(id, { resolve, reject, run });
      events.push({ k: 'op', id, worker, target, name, args: plain(args) });
    });
  }
  return Object.freeze(proxy);
}

/** Builds a worker's dependencies from the supervisor's description. */
function buildDeps(worker, spec) {
  if (Array.isArray(spec)) return spec.map((item) => buildDeps(worker, item));
  if (spec === null || typeof spec !== 'object') return spec;
  switch (spec.$) {
    case 'worker': return worker;
    case 'clock': return Object.freeze({
      now: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => { clock.addTimer(ms, resolve, false); }),
    });
    case 'remote': return remote(worker, spec.name, spec.methods);
    case undefined: {
      const out = {};
      for (const [key, value] of Object.entries(spec)) out[key] = buildDeps(worker, value);
      return out;
    }
    default: throw new Error(`unknown dependency kind ${spec.$}`);
  }
}

async function spawnWorker({ worker, module, factory, deps }) {
  try {
    const instance = await currentWorker.run(worker, async () => {
      const mod = await graphs.import(module, worker);
      if (typeof mod[factory] !== 'function') {
        throw new TypeError(`${module} does not export a function named ${factory}`);
      }
      return mod[factory](buildDeps(worker, deps));
    });
    workers.set(worker, instance);
    events.push({ k: 'spawned', worker, ok: true });
  } catch (error) {
    events.push({ k: 'spawned', worker, ok: false, error: describeError(error) });
  }
}

function callWorker({ callId, worker, method, args }) {
  const instance = workers.get(worker);
  const callRun = run;
  currentWorker.run(worker, () => {
    Promise.resolve()
      .then(() => {
        if (!instance || typeof instance[method] !== 'function') {
          throw new TypeError(`the worker has no method ${method}()`);
        }
        return instance[method](...args);
      })
      .then(
        (value) => { if (callRun === run) events.push({ k: 'settled', callId, ok: true, value: plain(value) }); },
        (error) => { if (callRun === run) events.push({ k: 'settled', callId, ok: false, error: describeError(error) }); },
      );
  });
}

function reply({ id, ok, value, error }) {
  const op = pendingOps.get(id);
  if (!op) return;
  pendingOps.delete(id);
  if (ok) op.resolve(value);
  else op.reject(new Error(error));
}

function fire({ id }) {
  const timer = timers.get(id);
  if (!timer) return;
  if (timer.repeat) events.push({ k: 'timer', id, worker: timer.worker, due: now + Math.max(1, timer.delay) });
  else timers.delete(id);
  currentWorker.run(timer.worker, () => {
    try { timer.fire(); } catch (error) { events.push({ k: 'uncaught', worker: timer.worker, error: describeError(error) }); }
  });
}

/** Starts a new schedule: forgets the last one and starts a fresh instance of every worker. */
async function reset({ run: nextRun, seed, workers: names, module, factory, deps }) {
  run = nextRun;
  now = 0;
  workers.clear();
  pendingOps.clear();
  timers.clear();
  counters.clear();
  determinism.reseed(seed);
  for (const worker of names) await spawnWorker({ worker, module, factory, deps });
}

process.on('uncaughtException', (error) => {
  events.push({ k: 'uncaught', worker: currentWorker.getStore() ?? 'system', error: describeError(error) });
});
process.on('unhandledRejection', (error) => {
  events.push({ k: 'uncaught', worker: currentWorker.getStore() ?? 'system', error: describeError(error) });
});

/** Lets every microtask and immediate the last command started run to completion. */
async function settle() {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => realSetImmediate(resolve));
}

const handlers = { reset, call: callWorker, reply, fire };

process.on('message', async (message) => {
  if (typeof message.now === 'number') now = message.now;
  const handler = handlers[message.t];
  if (handler) await handler(message);
  await settle();
  const batch = events;
  events = [];
  send({ t: 'idle', events: batch });
});

send({ t: 'ready' });
