// What the schedules of a search came to, for the reduction's tests: a reduced
// search must reach every outcome the search without reduction reaches.

import { runHidden } from '../hidden.mjs';

/**
 * What a schedule came to, as its workers and the store saw it: each worker's
 * steps in order, with their moments and results. Schedules that differ only
 * in the order of steps that commute come to the same.
 */
function outcomeOf(trace) {
  const byWorker = new Map();
  for (const { worker, at, operation, key, result } of trace) {
    if (!byWorker.has(worker)) byWorker.set(worker, []);
    byWorker.get(worker).push(`${at} ${operation} ${key} ${result}`);
  }
  return JSON.stringify([...byWorker.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The outcomes of every schedule a search explored to its end, as `scenario | pace | end | outcome`. */
export async function outcomesWith(reduction, suite, repoDir) {
  const outcomes = new Set();
  const results = await runHidden({ suite, repoDir, sandbox: true, outputLimitBytes: 1 << 20, reduction,
    observe: (scenario, run) => outcomes.add(`${scenario} | ${run.pace} | ${run.end} | ${outcomeOf(run.trace)}`) });
  return { results, outcomes };
}
