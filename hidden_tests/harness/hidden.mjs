// Runs a hidden suite against a repository and returns results shaped like
// Exercism's test-runner results v3. Every simulated worker runs in a process of
// its own; every test in the suite gets a result, even when its scenario could
// not run. A test passes only when the exploration proved it: one whose
// exploration did not finish is an error, never a pass.

import { WorkerFailure, WorkerOptions } from './worker-link.mjs';
import { WorkerPool } from './worker-pool.mjs';
import { HOST_HEAP_MB, workerHeapMb } from './workers-ahead.mjs';
import { explore, Nondeterminism } from './explorer.mjs';
import { prepareSuite, materializeSuite } from './suite.mjs';
import { memoryLimitBytes } from './memory-facts.mjs';
import { unfinishedMessage } from './unfinished.mjs';

const OUTPUT_CHARS = 500;
const TRACE_HEAD = 40;
const TRACE_TAIL = 200;
/** Memory kept for the supervisor and the kernel when sharing a container among workers. */
const SUPERVISOR_RESERVE_BYTES = 96 << 20;

/**
 * Keeps a long trace readable and its record small: the first steps, a note of
 * how many were left out, the last steps, and every highlighted step.
 */
function trimTrace(trace) {
  if (trace.length <= TRACE_HEAD + TRACE_TAIL) return trace;
  const cut = trace.slice(TRACE_HEAD, trace.length - TRACE_TAIL);
  const kept = cut.filter((s) => s.highlight);
  const note = { step: cut[0].step, at: cut[0].at, worker: '', operation: '…', key: '', result: `${cut.length - kept.length} steps left out` };
  return [...trace.slice(0, TRACE_HEAD), note, ...kept, ...trace.slice(trace.length - TRACE_TAIL)];
}

/** Keeps the last `limit` characters of learner output. */
function clip(text) {
  return text.length <= OUTPUT_CHARS ? text : `…${text.slice(-(OUTPUT_CHARS - 1))}`;
}

/**
 * Each worker's share of the container's memory (after the supervisor's reserve),
 * among the most workers a scenario runs at once. A worker that passes its share
 * has run out of memory; a warm process is replaced long before it gets near.
 */
function memoryShare(suite) {
  const limit = memoryLimitBytes() ?? 4 * HOST_HEAP_MB * (1 << 20);
  const workers = Math.max(...suite.scenarios.map((s) => new Set(s.deliveries.map((d) => d.worker)).size));
  return Math.floor((limit - SUPERVISOR_RESERVE_BYTES) / workers);
}

/** The result of each of a scenario's tests, from its exploration. */
function judge(scenario, outcome, limits) {
  const budget = { schedules: limits.maxSchedules, steps: limits.maxSteps, work: limits.maxWork };
  const firstFailure = scenario.tests.find((test) => outcome.verdicts.has(test.property));
  return scenario.tests.map((test) => {
    const measured = { schedules: outcome.schedules, longest: outcome.longest, work: outcome.work, budget };
    const failed = outcome.verdicts.get(test.property);
    if (failed) {
      return { name: test.name, status: 'fail', message: failed.message, output: clip(failed.output), ...measured, trace: trimTrace(failed.trace) };
    }
    if (outcome.unfinished || outcome.cutShort > 0) {
      const message = unfinishedMessage(outcome, limits, firstFailure?.name);
      return { name: test.name, status: 'error', message, output: '', ...measured };
    }
    return { name: test.name, status: 'pass', message: '', output: '', ...measured };
  });
}

/**
 * Runs every scenario of `suite` against the repository in `repoDir`.
 * @param {{ suite: object | Function, faultModel?: object, repoDir: string, sandbox: boolean, outputLimitBytes: number, hostPath?: string, heapMb?: number,
 *   spares?: import('./worker-link.mjs').WorkerLink[], reduction?: boolean | 'sleep-sets', only?: string[] | null,
 *   observe?: (scenario: string, run: object) => void }} options
 *   suite is a suite module's default export (a suite, or a function of the service kit and
 *   the fault model); faultModel is the dossier's fault model as the suite receives it
 *   hostPath replaces the worker host (harness tests play hostile workers with it); heapMb
 *   replaces the workers' heap limit (harness tests run out of memory quickly with it); spares are
 *   processes startWorkersAhead (workers-ahead.mjs) booted with the same repoDir; reduction and observe
 *   are the explorer's (explorer.mjs); only, when given, runs just the
 *   scenarios that hold one of the tests it names (selectScenarios)
 * @returns {Promise<object>} results v3 with an optional run-level `verdict`, and `internal`: the harness's
 *   own errors with their stacks, for operators (the runner keeps them out of what a learner sees)
 */
export async function runHidden({ suite: exported, faultModel = null, repoDir, sandbox, outputLimitBytes, hostPath, heapMb = workerHeapMb(), spares = [], reduction = true, only = null, observe }) {
  let whole;
  let suite;
  try {
    whole = prepareSuite(materializeSuite(exported, faultModel), faultModel);
    suite = only ? selectScenarios(whole, only) : whole;
  } catch (error) {
    for (const spare of spares) spare.kill();
    throw error;
  }
  // The whole suite sets each worker's memory, so a selected scenario runs as it would in it.
  const options = new WorkerOptions({ repoDir, sandbox, outputLimitBytes, heapMb, memoryShareBytes: memoryShare(whole), hostPath });
  const pool = new WorkerPool(options, spares);
  const tests = [];
  /** The harness's own errors (a bug in it or in the suite), for operators: the learner reads only that a test could not be judged. */
  const internal = [];
  let verdict;
  try {
    for (const scenario of suite.scenarios) {
      try {
        const outcome = await explore({ suite, scenario, pool, reduction, observe: observe && ((run) => observe(scenario.name, run)) });
        if (outcome.setupError) return { version: 3, status: 'error', message: outcome.setupError, tests: [] };
        tests.push(...judge(scenario, outcome, scenario.limits));
      } catch (error) {
        const message = describeFailure(error);
        if (!(error instanceof WorkerFailure || error instanceof Nondeterminism)) internal.push(`${scenario.name}: ${error?.stack ?? error}`);
        for (const test of scenario.tests) tests.push({ name: test.name, status: 'error', message, output: '' });
        // A time-out, memory or output verdict ends the run: the rest would only repeat it.
        if (error instanceof WorkerFailure && error.kind !== 'error') {
          verdict = error.kind;
          break;
        }
      }
    }
  } finally {
    pool.close();
  }
  for (const scenario of suite.scenarios) {
    for (const test of scenario.tests) {
      if (!tests.some((t) => t.name === test.name)) {
        tests.push({ name: test.name, status: 'error', message: `not run: an earlier scenario ended the run (${verdict})`, output: '' });
      }
    }
  }
  const status = tests.every((t) => t.status === 'pass') ? 'pass' : tests.some((t) => t.status === 'fail') ? 'fail' : 'error';
  const results = { version: 3, status, tests };
  if (verdict) results.verdict = verdict;
  if (status === 'error') results.message = tests.find((t) => t.status === 'error').message;
  if (internal.length > 0) results.internal = internal.join('\n\n');
  return results;
}

/**
 * The suite with only the scenarios that hold a test named in `names`, each whole
 * (scenarios are explored apart, so each gives the results it gives in the whole
 * suite). Proving a decoy needs no more: `racecase validate` asks only whether the
 * tests its wrong turns name fail or pass.
 */
export function selectScenarios(suite, names) {
  const wanted = new Set(names);
  const scenarios = suite.scenarios.filter((s) => s.tests.some((t) => wanted.has(t.name)));
  const known = new Set(suite.scenarios.flatMap((s) => s.tests.map((t) => t.name)));
  const unknown = [...wanted].filter((name) => !known.has(name));
  if (unknown.length > 0) throw new Error(`the suite has no test named ${unknown.map((n) => JSON.stringify(n)).join(', ')}`);
  return { ...suite, scenarios };
}

function describeFailure(error) {
  if (error instanceof WorkerFailure) return error.message;
  if (error instanceof Nondeterminism) {
    return `the code behaved differently when the same schedule was replayed (${error.message}); `
      + 'it depends on something the harness does not control';
  }
  return 'internal harness error: the scenario could not be judged';
}
