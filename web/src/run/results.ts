// Per-test results of a finished run, straight from the API's answer: the
// verdict, the known wrong turns a failed submission matches, each test's
// name, status and message, and for a failed concurrency test its
// interleaving as a timeline.
import { h } from '../lib/dom';
import { duration } from '../lib/format';
import type { Run, TestResult } from '../lib/types';
import type { SourceLinks } from './source-site';
import { timeline } from './timeline';
import { wrongTurnsView } from './wrong-turns';

const verdictText: Record<string, string> = {
  pass: 'passed', fail: 'failed', error: 'could not run', timeout: 'timed out', memory: 'ran out of memory', 'output-limit': 'printed too much output',
};

/** "1 schedule", "72 schedules". */
function schedules(n: number): string {
  return `${n} ${n === 1 ? 'schedule' : 'schedules'}`;
}

/** A verdict in words: "passed", "failed", "timed out"… */
export function verdictWords(verdict: string): string {
  return verdictText[verdict] ?? verdict;
}

/** The label of a run: "Checks" or "Submission". */
export function runLabel(kind: string): string {
  return kind === 'submit' ? 'Submission' : 'Checks';
}

function testRow(t: TestResult, links: SourceLinks): HTMLElement {
  const icon = t.status === 'pass' ? '✓' : t.status === 'fail' ? '✗' : '!';
  const open = t.status !== 'pass';
  return h('li', { class: `test ${t.status}`, 'data-test': t.name },
    h('div', { class: 'test-head' },
      h('span', { class: 'test-icon', 'aria-hidden': 'true' }, icon),
      h('span', { class: 'test-name' }, t.name),
      h('span', { class: `badge ${t.status === 'pass' ? 'ok' : 'bad'}` }, t.status),
      t.schedules ? h('span', { class: 'test-meta', title: 'Interleavings the hidden test explored' }, schedules(t.schedules)) : null),
    open && t.message ? h('pre', { class: 'test-message' }, t.message) : null,
    t.trace?.length && t.status !== 'pass' ? timeline(t.trace, t.name, links) : null,
    t.output ? h('details', { class: 'test-output' }, h('summary', null, 'Output'), h('pre', null, t.output)) : null);
}

/** Renders a finished run's results; links open the code a traced call came from. */
export function resultsView(run: Run, links: SourceLinks): HTMLElement {
  const passed = run.tests.filter((t) => t.status === 'pass').length;
  const verdict = run.verdict ?? 'error';
  const ok = verdict === 'pass';
  const what = run.kind === 'submit' ? 'hidden tests' : 'tests';
  return h('div', { class: `results verdict-${verdict}`, 'data-run': run.id, 'data-kind': run.kind, 'data-verdict': verdict },
    h('div', { class: 'results-head' },
      h('span', { class: `verdict-badge ${ok ? 'ok' : 'bad'}` }, `${runLabel(run.kind)} ${verdictWords(verdict)}`),
      h('span', { class: 'results-count' }, run.tests.length ? `${passed} of ${run.tests.length} ${what} passed` : `no ${what} reported`),
      run.duration_ms ? h('span', { class: 'muted small' }, duration(run.duration_ms)) : null),
    run.message ? h('p', { class: 'results-message' }, run.message) : null,
    ok && run.kind === 'check' ? h('p', { class: 'results-next' }, 'Checks pass. Submit the fix to run the hidden concurrency tests, which explore every interleaving.') : null,
    ok && run.kind === 'submit' ? h('p', { class: 'results-next' }, 'Every hidden test passed in every schedule it explored. The root cause is revealed in the hypotheses, and the on-call playbook is yours beside it.') : null,
    run.wrong_turns?.length ? wrongTurnsView(run.wrong_turns, run.id) : null,
    h('ol', { class: 'tests' }, run.tests.map((t) => testRow(t, links))));
}
