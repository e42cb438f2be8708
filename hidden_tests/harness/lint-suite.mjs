// Checks a hidden suite without Docker: `node --experimental-vm-modules lint-suite.mjs
// <suite.mjs> <repoDir> [<fault-model.json>]` loads the suite (a suite that exports a
// function gets the fault model, as a hidden run gives it), checks every field and name
// in it (see suite.mjs), then loads the subject module from the repository in a worker
// realm, calls its factory and looks for its method, as a hidden run would. It prints
// {"problems":[{ field, message, fix, line }], "work": n, "worlds": [...]} on stdout;
// line is the suite file's line the problem is on (0 when it cannot be placed), work
// is the sum of every scenario's work budget (maxWork), and worlds says what each
// scenario explores (worldOf), for racecase lint to hold against the fault model;
// work is 0 and worlds empty when the suite has problems. Syntax errors are found
// before this runs (`node --check`), by racecase lint.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkSuite, materializeSuite, prepareSuite, remoteSpecs } from './suite.mjs';
import { SuiteError } from './suite-problems.mjs';
import { arriveTogether, mayOverlap } from './deliveries.mjs';
import { Realm, compileRuntime } from './worker/realm.mjs';
import { ModuleGraph, ModuleSources, ModuleError } from './worker/module-graph.mjs';

const [suiteFile, repoDir, faultModelFile] = process.argv.slice(2).map((p) => path.resolve(p));
const faultModel = faultModelFile ? JSON.parse(fs.readFileSync(faultModelFile, 'utf8')) : null;
const source = fs.readFileSync(suiteFile, 'utf8');
const lines = source.split('\n');

/** The first line at or after `from` (0-based) that contains `text`, 1-based; 0 when none does. */
function lineWith(text, from = 0) {
  for (let i = from; i < lines.length; i++) if (lines[i].includes(text)) return i + 1;
  return 0;
}

/** The line of a quoted string literal, at or after `from`. */
function lineOfString(value, from = 0) {
  if (typeof value !== 'string') return 0;
  for (const quote of ["'", '"', '`']) {
    const line = lineWith(`${quote}${value}${quote}`, from);
    if (line) return line;
  }
  return 0;
}

/** Where in the file a problem is: near the scenario and test it is in, at the key or value at fault. */
function lineOf(suite, problem) {
  let from = 0;
  const scenario = /^scenarios\[(\d+)\]/.exec(problem.field);
  if (scenario) {
    const s = suite.scenarios?.[Number(scenario[1])];
    from = Math.max(0, lineOfString(s?.name) - 1);
    const test = /\.tests\[(\d+)\]/.exec(problem.field);
    if (test) from = Math.max(from, lineOfString(s?.tests?.[Number(test[1])]?.name, from) - 1);
  }
  const quoted = /^(?:unknown (?:field|property) |test name )?"([^"]+)"/.exec(problem.message)?.[1];
  const key = problem.field.split('.').pop().replace(/\[\d+\]$/, '');
  return (quoted && (lineOfString(quoted, from) || lineWith(`${quoted}:`, from))) || (key && lineWith(`${key}:`, from)) || from + (from ? 1 : 0);
}

/** The line in the suite file where an error was thrown, from its stack. */
function lineOfError(error) {
  const where = String(error?.stack ?? '').split('\n').find((l) => l.includes(pathToFileURL(suiteFile).href));
  return Number(/:(\d+):\d+\)?$/.exec(where ?? '')?.[1] ?? 0);
}

/** Loads the subject in a realm as a worker would, and reports what stops it starting. */
async function checkSubject(suite) {
  const { subject } = suite;
  const problems = [];
  const add = (field, message, fix) => problems.push({ field, message, fix, line: lineWith(`${field.split('.').pop()}:`) });
  if (!fs.existsSync(path.join(repoDir, subject.module))) {
    add('subject.module', `repo/${subject.module} does not exist`, 'name the module, relative to repo/, that exports the factory');
    return problems;
  }
  let spawned = null;
  const sink = {
    now: 0, request: () => '', op: () => 'op1', timer: () => 't1', rearm() {}, clear() {}, write() {}, settled() {}, uncaught() {}, exit() {},
    spawned(ok, error) { spawned = { ok, error }; },
  };
  const realm = new Realm({ scripts: compileRuntime(), worker: 'lint', repoDir, module: subject.module, sink });
  try {
    const module = await new ModuleGraph(new ModuleSources(repoDir), realm).link(subject.module);
    await module.evaluate();
    if (typeof module.namespace[subject.factory] !== 'function') {
      add('subject.factory', `repo/${subject.module} does not export a function named ${subject.factory}`,
        `export the factory (exports: ${Object.keys(module.namespace).join(', ') || 'none'})`);
      return problems;
    }
    realm.entry.start(module.namespace, subject.factory, JSON.stringify(subject.deps ?? {}));
    for (let i = 0; i < 10 && !spawned; i++) await new Promise((resolve) => { setImmediate(resolve); });
  } catch (error) {
    const message = error instanceof ModuleError ? error.message : realm.entry.describe(error);
    add('subject.module', `repo/${subject.module} cannot be loaded: ${message}`, 'fix the module so that a worker can import it');
    return problems;
  }
  if (!spawned) add('subject.factory', `${subject.factory}(deps) did not return (it waits for something)`, 'the factory must not wait for a remote call or a timer');
  else if (!spawned.ok) add('subject.factory', `${subject.factory}(deps) failed: ${spawned.error}`, 'check subject.deps against what the factory expects');
  else if (!realm.entry.hasMethod(subject.method)) {
    add('subject.method', `what ${subject.factory}(deps) returns has no method ${subject.method}()`, 'name the method a delivery calls');
  }
  return problems;
}

/** The latency range, [min, max] in ms, of a scenario's calls to the remote `name`; null when it has none. */
function latencyOf(scenario, name) {
  const fallback = [0, scenario.limits.maxLatencyMs];
  if (name === 'store' || name === 'locks') return fallback;
  const ranges = scenario.effects.filter((e) => e.target === name).map((e) => e.latencyMs ?? fallback);
  if (ranges.length === 0 && scenario.services[name]) ranges.push(scenario.services[name].latencyMs ?? fallback);
  if (ranges.length === 0) return null;
  return [Math.min(...ranges.map((r) => r[0])), Math.max(...ranges.map((r) => r[1]))];
}

/** A listed set of paces as the number that explores as much of them: 3 with a worker alone slow, 2 with all slow, else 1. */
function paceCount(paces) {
  if (!Array.isArray(paces)) return paces;
  if (paces.some((pace) => pace.startsWith('slow:'))) return 3;
  return paces.includes('slow') ? 2 : 1;
}

/**
 * What one scenario explores of the world: the latency range of each remote the
 * subject gets (calls: each remote's methods), the remotes and calls it fails, the delay bound, the horizon, redelivery, the
 * same job delivered twice (overlapping: both start on their own; sequential: one
 * after another's end, or a redelivery), one worker handed two deliveries at once, crashes, stalls, pauses, and the
 * properties its tests name.
 */
function worldOf(scenario, calls) {
  const latencyMs = {};
  for (const name of Object.keys(calls)) {
    const range = latencyOf(scenario, name);
    if (range) latencyMs[name] = range;
  }
  const byJob = new Map();
  for (const d of scenario.deliveries) byJob.set(d.job, [...(byJob.get(d.job) ?? []), d]);
  const twice = [...byJob.values()].filter((ds) => ds.length > 1);
  return {
    name: scenario.name,
    latencyMs,
    fails: [...new Set([...scenario.effects.filter((e) => typeof e.fail === 'function'), ...scenario.faults].map((e) => e.target))],
    failedCalls: [...new Set([...scenario.effects.filter((e) => typeof e.fail === 'function'), ...scenario.faults].map((e) => `${e.target}.${e.method}`))],
    calls,
    maxDelays: scenario.limits.maxDelays,
    paces: paceCount(scenario.limits.paces),
    flipDraws: scenario.limits.flipDraws,
    horizonMs: scenario.limits.horizonMs,
    redeliverEveryMs: scenario.redeliver?.everyMs ?? null,
    overlapping: twice.some((ds) => ds.filter((d) => d.after === undefined).length > 1),
    sameWorker: mayOverlap(scenario.deliveries),
    // Within the slowest call's latency of each other: the first may still be waiting for it.
    atOnce: arriveTogether(scenario.deliveries, Math.max(scenario.limits.maxLatencyMs, ...Object.values(latencyMs).map(([, max]) => max))),
    during: scenario.deliveries.some((d) => d.during !== undefined),
    sequential: twice.length > 0 || scenario.redeliver !== undefined,
    crash: scenario.crash !== undefined,
    stallMs: scenario.stall?.ms ?? 0,
    pauses: (scenario.pauses ?? []).map((p) => ({ ms: p.ms ?? 0, untilLeases: p.until === 'leases' })),
    properties: [...new Set(scenario.tests.map((t) => t.property))],
  };
}

/** What every scenario of a suite explores (worldOf). */
function worldsOf(suite) {
  const prepared = prepareSuite(suite, faultModel);
  // Each remote the subject gets, with the methods the code may call on it.
  const calls = {};
  for (const { spec } of remoteSpecs(prepared.subject.deps, 'subject.deps')) {
    calls[spec.name] = [...new Set([...(calls[spec.name] ?? []), ...(spec.methods ?? [])])];
  }
  return prepared.scenarios.map((scenario) => worldOf(scenario, calls));
}

/** Every scenario's work budget, added up: what the whole suite may run. */
function workOf(suite) {
  return prepareSuite(suite, faultModel).scenarios.reduce((sum, scenario) => sum + scenario.limits.maxWork, 0);
}

async function main() {
  let exported;
  try {
    exported = (await import(pathToFileURL(suiteFile).href)).default;
  } catch (error) {
    return { problems: [{ field: '', message: `the suite cannot be loaded: ${error?.name ?? 'Error'}: ${error?.message ?? error}`, fix: 'fix the error at this line', line: lineOfError(error) }] };
  }
  let suite;
  try {
    suite = materializeSuite(exported, faultModel);
  } catch (error) {
    return { problems: [{ field: '', message: `the suite's default export failed: ${error?.message ?? error}`, fix: 'fix the error at this line', line: lineOfError(error) }] };
  }
  const problems = checkSuite(suite).map((p) => ({ field: p.field, message: p.message, fix: p.fix, line: lineOf(suite, p) }));
  if (problems.some((p) => p.field.startsWith('subject'))) return { problems };
  const all = [...problems, ...await checkSubject(suite)];
  if (all.length > 0) return { problems: all, work: 0, worlds: [] };
  try {
    return { problems: all, work: workOf(suite), worlds: worldsOf(suite) };
  } catch (error) {
    if (!(error instanceof SuiteError)) throw error;
    return { problems: error.problems.map((p) => ({ ...p, line: lineOf(suite, p) })), work: 0, worlds: [] };
  }
}

process.stdout.write(`${JSON.stringify(await main())}\n`);
process.exit(0);
