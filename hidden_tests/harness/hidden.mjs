// Runs a hidden suite against a repository and returns results shaped like
// Exercism's test-runner results v3. Every scenario gets a fresh child process;
// every test in the suite gets a result, even when its scenario could not run.

import { ChildFailure } from './child-link.mjs';
import { ChildHost } from './child-host.mjs';
import { explore, Nondeterminism } from './explorer.mjs';
import { PROPERTIES } from './properties.mjs';
import { validateSuite } from './suite.mjs';

const OUTPUT_CHARS = 500;
const TRACE_HEAD = 40;
const TRACE_TAIL = 200;

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
 * Runs every scenario of `suite` against the repository in `repoDir`.
 * @param {{ suite: object, repoDir: string, sandbox: boolean, outputLimitBytes: number }} options
 * @returns {Promise<object>} results v3 with an optional run-level `verdict`
 */
export async function runHidden({ suite, repoDir, sandbox, outputLimitBytes }) {
  validateSuite(suite, { ...PROPERTIES, ...suite.properties });
  const tests = [];
  let verdict;
  let firstRun = 0;
  for (const scenario of suite.scenarios) {
    const host = new ChildHost({ repoDir, outputLimitBytes, sandbox, timeoutMs: suite.limits.stepTimeoutMs });
    try {
      const outcome = await explore({ suite, scenario, host, firstRun });
      firstRun = outcome.runs;
      if (outcome.setupError) {
        return { version: 3, status: 'error', message: outcome.setupError, tests: [] };
      }
      for (const test of scenario.tests) {
        const failed = outcome.verdicts.get(test.property);
        tests.push(failed
          ? { name: test.name, status: 'fail', message: failed.message, output: clip(failed.output), schedules: outcome.schedules, trace: trimTrace(failed.trace) }
          : { name: test.name, status: 'pass', message: '', output: '', schedules: outcome.schedules });
      }
    } catch (error) {
      const message = describeFailure(error);
      for (const test of scenario.tests) {
        tests.push({ name: test.name, status: 'error', message, output: clip(host.output()) });
      }
      // A time-out, memory or output verdict ends the run: the rest would only repeat it.
      if (error instanceof ChildFailure && error.kind !== 'exited') {
        verdict = error.kind;
        break;
      }
    } finally {
      host.close();
    }
  }
  for (const scenario of suite.scenarios) {
    for (const test of scenario.tests) {
      if (!tests.some((t) => t.name === test.name)) {
        tests.push({ name: test.name, status: 'error', message: `not run: an earlier scenario ended the run (${verdict})`, output: '' });
      }
    }
  }
  const status = tests.every((t) => t.status === 'pass') ? 'pass' : 'fail';
  return verdict ? { version: 3, status, verdict, tests } : { version: 3, status, tests };
}

function describeFailure(error) {
  if (error instanceof ChildFailure) return error.message;
  if (error instanceof Nondeterminism) {
    return `the code behaved differently when the same schedule was replayed (${error.message}); `
      + 'it depends on something the harness does not control, such as real I/O';
  }
  return 'internal harness error: the scenario could not be judged';
}
