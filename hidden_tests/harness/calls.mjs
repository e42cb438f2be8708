// Answers a worker's call once the explorer lets it arrive: at the fake store,
// the lock service, a stateful service or a side effect. Each answer becomes a
// trace step, and a call that takes something (a store write, a lock, a service
// call that writes) is where a scenario's crash or stall strikes.

import { describeCall, clipMessage, show } from './describe.mjs';
import { requestLabel } from './trace.mjs';
import { startFollowers } from './deliveries.mjs';
import { ownerName } from './locks.mjs';

/** The targets the world itself answers; every other remote is a service or an effect. */
export const STORE = 'store';
export const LOCKS = 'locks';

/** Whether a completed store or lock call is the worker taking something: a crash or stall point. */
function isClaim(op, value) {
  if (op.target === LOCKS) return op.name !== 'release' && value === true;
  if (op.target !== STORE) return false;
  return ['set', 'setIfAbsent', 'compareAndSet', 'incrBy'].includes(op.name) && value !== false;
}

/** The effect declaration a call is for, if any. */
export function effectOf(world, op) {
  return world.effects.find((e) => e.target === op.target && e.method === op.name);
}

/** The scenario's fault for a store, lock or service call, if any. */
export function faultOf(world, op) {
  return world.scenario.faults?.find((f) => f.target === op.target && f.method === op.name);
}

/**
 * Answers one call and records it in the trace.
 * @param {import('./world.mjs').World} world
 * @param {object} op the call, as the world keeps it (worker, target, name, args, job, call, site, issuedAt)
 * @param {{ answerAt?: number, read?: { value?: string | null, view?: object, at: number } }} [how] answerAt: when its
 *   answer arrives, if later than now (late-answers.mjs); read: for a store read, the older value it answers, for a
 *   service read, the older view of the service it answers from (stale-reads.mjs)
 * @returns {{ ok: boolean, value: unknown, error?: string, crashed: boolean }}
 */
export function answer(world, op, { answerAt, read } = {}) {
  const delivery = world.calls.get(op.call);
  const where = { service: op.target, request: requestLabel(delivery), site: op.site, issued: op.issuedAt };
  const since = op.issuedAt < world.now ? ` (in flight since ${op.issuedAt} ms)` : '';
  const late = answerAt === undefined ? since : ` (its answer is on its way back until ${answerAt} ms)${since}`;
  const key = keyOf(world, op);
  let outcome;
  if (op.target === STORE || op.target === LOCKS) outcome = atStoreOrLocks(world, op, delivery, key, late, where, read);
  else if (world.services.has(op.target)) outcome = atService(world, op, delivery, key, late, where, read);
  else if (effectOf(world, op)) outcome = atEffect(world, op, delivery, late, where);
  else {
    const error = `${op.target}.${op.name}() is not available`;
    world.step(op.worker, op.name, key, `error: ${error}`, where);
    outcome = { ok: false, value: null, error };
  }
  const took = outcome.ok && (isClaim(op, outcome.value) || outcome.wrote === true);
  return { ...outcome, crashed: took && strike(world, op, key) };
}

/**
 * What a call is about, as the trace shows it and a fault counts its arrivals:
 * its first argument when that is a name or a number, else the service's own
 * reading of its arguments, else the argument shown short (never "[object Object]").
 */
function keyOf(world, op) {
  const first = op.args?.[0];
  if (first === null || first === undefined) return '';
  if (typeof first !== 'object') return String(first);
  const said = world.services.has(op.target) ? world.services.key(op.target, op.name, op.args) : undefined;
  return said === undefined ? show(first) : String(said);
}

/**
 * What a suite's fail, reply, key or service method learns of a call: who made
 * it, for which delivery (and that delivery as the trace labels it, its
 * request), when, and how many effects its job had before it (so a fault can
 * strike a clean-up made after a charge or a send).
 */
function callOf(world, op, delivery) {
  return {
    worker: op.worker, job: op.job, at: world.now, id: op.id, delivery, request: requestLabel(delivery),
    // Counted only when read: most calls meet no fault that asks.
    get effects() { return world.sends.filter((s) => s.job === op.job).length; },
  };
}

/**
 * Whether the scenario fails this store, lock or service call: then it does nothing and its
 * worker gets the error. The fault's fail(args, call) sees how many calls of this
 * method on this key arrived before (count), how many of them it failed (failures),
 * and how many calls of any method on this key it failed (failuresOnKey).
 */
function injectedFailure(world, op, delivery, key, late, where) {
  const fault = faultOf(world, op);
  if (!fault) return null;
  const id = `${op.target}.${op.name}:${key}`;
  const call = callOf(world, op, delivery);
  call.count = world.arrivals.get(id) ?? 0;
  call.failures = world.failures.filter((k) => k === id).length;
  call.failuresOnKey = world.failures.filter((k) => k.startsWith(`${op.target}.`) && k.slice(k.indexOf(':') + 1) === key).length;
  world.arrivals.set(id, call.count + 1);
  const failure = fault.fail(op.args ?? [], call);
  if (!failure) return null;
  world.failures.push(id);
  const { error, fields } = failureOf(failure, `${op.target} unavailable`);
  world.step(op.worker, op.name, key, `failed: ${clipMessage(error)}${late}`, where);
  return { ok: false, value: fields, error };
}

/**
 * Who a lock call is made for: its request (delivery) where a worker may
 * handle several at once, else just its worker (its calls then belong to
 * whichever delivery it runs, and a release from a timer after the handler
 * answered is still its own).
 */
export function lockOwner(world, op) {
  return { worker: op.worker, request: world.attribute ? world.calls.get(op.call) ?? null : null };
}

function atStoreOrLocks(world, op, delivery, key, late, where, read) {
  const failed = injectedFailure(world, op, delivery, key, late, where);
  if (failed) return failed;
  const before = op.target === STORE ? world.store.entry(op.args?.[0], world.now) : undefined;
  const held = op.target === LOCKS ? world.locks.holder(op.args?.[0]) : undefined;
  const holder = held && ownerName(held, world.deliveries);
  let value = null;
  try {
    value = op.target === STORE
      ? world.store.apply(op.name, op.args ?? [], op.worker, world.now)
      : world.locks.apply(op.name, op.args ?? [], lockOwner(world, op));
  } catch (e) {
    world.step(op.worker, op.name, key, `error: ${e.message}${late}`, where);
    return { ok: false, value: null, error: e.message };
  }
  if (read) value = read.value;
  const words = read
    ? `${show(value)} (what the key held at ${read.at} ms: the read took effect then, and its answer came back now)`
    : describeCall(op, value, before, holder);
  const written = { get: value, compareAndSet: op.args?.[2] }[op.name] ?? op.args?.[1];
  const step = world.step(op.worker, op.name, key, `${words}${late}`, { ...where, value: written });
  if (op.target === STORE) {
    world.store.noteCall(op.args?.[0], step, world.now);
    for (const property of world.properties) property.onStore?.(world, op, before, value, step);
  }
  return { ok: true, value };
}

function atService(world, op, delivery, key, late, where, read) {
  const failed = injectedFailure(world, op, delivery, key, late, where);
  if (failed) return failed;
  const recorded = [];
  const call = Object.assign(callOf(world, op, delivery), { record: (k) => recorded.push(String(k)) });
  const { ok, value, error, result, wrote } = world.services.answer(op, call, read);
  const stale = read ? ` (as ${op.target} stood at ${read.at} ms: the call took effect then, and its answer came back now)` : '';
  const words = ok ? result ?? `done ${show(value)}` : `failed: ${clipMessage(error)}`;
  const step = world.step(op.worker, op.name, key, `${words}${stale}${late}`, { ...where, value: ok ? value : undefined });
  for (const k of recorded) {
    world.sends.push({ key: k, job: op.job, worker: op.worker, target: op.target, method: op.name, args: op.args, step, at: world.now });
  }
  return ok ? { ok, value, wrote } : { ok, value: null, error };
}

/**
 * A suite's failure in the terms of a reply: `true` (a default message), a
 * message, or `{ message, ...fields }`, whose fields (a client's `name`, `code`
 * or `status`) the rejected error carries.
 */
function failureOf(failure, fallback) {
  if (failure === true) return { error: fallback, fields: null };
  if (typeof failure === 'object' && failure !== null) {
    const { message, ...fields } = failure;
    return { error: String(message ?? fallback), fields };
  }
  return { error: String(failure), fields: null };
}

function atEffect(world, op, delivery, late, where) {
  const effect = effectOf(world, op);
  const call = callOf(world, op, delivery);
  const effectKey = String(effect.key ? effect.key(op.args ?? [], call) : op.job);
  call.count = world.sends.filter((s) => s.key === effectKey).length;
  call.failures = world.failures.filter((k) => k === effectKey).length;
  const failure = effect.fail?.(op.args ?? [], call);
  if (failure) {
    world.failures.push(effectKey);
    const { error, fields } = failureOf(failure, `${op.target} unavailable`);
    world.step(op.worker, op.name, effectKey, `failed: ${clipMessage(error)}${late}`, where);
    return { ok: false, value: fields, error };
  }
  const value = effect.reply ? effect.reply(op.args ?? [], call) : { id: `${op.target}-${op.id}` };
  const step = world.step(op.worker, op.name, effectKey, `done ${show(value)}${late}`, { ...where, value });
  world.sends.push({ key: effectKey, job: op.job, worker: op.worker, target: op.target, method: op.name, args: op.args, step, at: world.now });
  return { ok: true, value };
}

/**
 * A scenario's crash or stall, right after the worker's n-th successful take (a
 * store write, a lock, a service call that writes; `after: n`, the first by
 * default); true when it crashed.
 */
function strike(world, op, key) {
  const taken = (world.takes.get(op.worker) ?? 0) + 1;
  world.takes.set(op.worker, taken);
  const due = (spec) => spec?.worker === op.worker && taken === (spec.after ?? 1);
  if (due(world.scenario.crash) && !world.crashed.has(op.worker)) {
    world.crashed.set(op.worker, world.now);
    world.locks.releaseAll(op.worker);
    world.step(op.worker, 'crash', key, 'the worker process dies');
    // What was to come after the worker's deliveries comes after its death.
    for (const d of world.deliveries) if (d.worker === op.worker && d.state === 'running') startFollowers(world, d);
    return true;
  }
  const stall = world.scenario.stall;
  if (due(stall) && !world.frozen.has(op.worker)) {
    world.frozen.set(op.worker, world.now + stall.ms);
    world.frozenSince.set(op.worker, world.now);
    world.step(op.worker, 'stall', key, `the worker freezes for ${stall.ms} ms`);
  }
  return false;
}
