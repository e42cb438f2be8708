// Runs a module in a fresh worker realm inside the test process, as the worker
// host would, and hands back what it exported (as JSON) and what it asked of
// the world.

import fs from 'node:fs';
import path from 'node:path';
import { Realm, compileRuntime } from '../worker/realm.mjs';
import { ModuleGraph, ModuleSources } from '../worker/module-graph.mjs';
import { tempDir } from './temp-dirs.mjs';

const scripts = compileRuntime();

/** A sink that records every request the realm makes; `now` can be moved by the test. */
export function recordingSink() {
  const sink = {
    now: 0,
    events: [],
    written: '',
    ops: 0,
    timers: 0,
    request: () => '',
    op(target, name, args, site) { sink.ops += 1; sink.events.push({ k: 'op', target, name, args: JSON.parse(args), site }); return `op${sink.ops}`; },
    timer(delay, repeat) { sink.timers += 1; sink.events.push({ k: 'timer', id: `t${sink.timers}`, delay, repeat }); return `t${sink.timers}`; },
    rearm(id, delay) { sink.events.push({ k: 'rearm', id, delay }); },
    clear(id) { sink.events.push({ k: 'clear', id }); },
    write(stream, text) { sink.written += text; },
    settled(callId, ok, payload) { sink.events.push({ k: 'settled', callId, ok, payload }); },
    spawned(ok, error) { sink.events.push({ k: 'spawned', ok, error }); },
    uncaught(text) { sink.events.push({ k: 'uncaught', error: text }); },
    exit(code) { sink.events.push({ k: 'exit', code }); },
  };
  return sink;
}

/**
 * Writes `files` to a fresh repository and evaluates `entry` in a new realm.
 * @returns {Promise<{ realm: Realm, namespace: object, sink: object, repoDir: string }>}
 */
export async function runInRealm(files, { entry = 'main.js', worker = 'blue', sink = recordingSink() } = {}) {
  const repoDir = tempDir('realm');
  for (const [name, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(repoDir, name)), { recursive: true });
    fs.writeFileSync(path.join(repoDir, name), source);
  }
  const realm = new Realm({ scripts, worker, repoDir, module: entry, sink });
  const module = await new ModuleGraph(new ModuleSources(repoDir), realm).link(entry);
  await module.evaluate();
  return { realm, namespace: module.namespace, sink, repoDir };
}

/** Lets microtasks and the realm's immediates run, as the worker host does after each step. */
export async function settle(realm) {
  for (let i = 0; i < 100; i++) {
    await new Promise((resolve) => { setImmediate(resolve); });
    if (realm.entry.nextImmediate() === null) return;
    while (realm.entry.nextImmediate() !== null) realm.entry.runNextImmediate();
  }
}

/** Evaluates one expression module and returns its `result` export, parsed from JSON. */
export async function evaluate(source, options) {
  const { namespace, realm } = await runInRealm({ 'main.js': source }, options);
  const result = await namespace.result;
  await settle(realm);
  return JSON.parse(result);
}
