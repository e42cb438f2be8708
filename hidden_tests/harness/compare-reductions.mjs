// Explores a suite twice on this host, with sleep sets alone and with source
// sets beside them (explorer.mjs), and compares the kinds of schedule each
// explored to its end: source sets must leave none out and visit none twice.
// For the harness's own test of the reduction, and for authors who wonder.
//
//   node compare-reductions.mjs <repoDir> <suite.mjs> [<fault-model.json>]
//
// Prints JSON on stdout: { sleepSets, sourceSets, missing, extra }, where each
// exploration has its status, kinds (how many kinds of schedule it explored to
// their end) and twice (kinds it explored more than once); missing and extra
// list, by scenario, kinds of schedule one found and
// the other did not. Only a suite that passes explores the same schedules both
// ways: a failing test ends the source-set search early.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runHidden } from './hidden.mjs';
import { independent } from './events.mjs';

/**
 * One name for every schedule of a kind: its steps in the order that always
 * takes, of the steps whose dependencies have been taken, the one whose id sorts
 * first. Schedules that only swap independent steps get the same name.
 * @param {Array<{ id: string, footprint: object }>} steps
 */
export function kindOf(steps) {
  const taken = new Array(steps.length).fill(false);
  const order = [];
  for (let n = 0; n < steps.length; n++) {
    let best = -1;
    for (let j = 0; j < steps.length; j++) {
      if (taken[j] || (best >= 0 && steps[j].id >= steps[best].id)) continue;
      let free = true;
      for (let i = 0; i < j && free; i++) free = taken[i] || independent(steps[i].footprint, steps[j].footprint);
      if (free) best = j;
    }
    taken[best] = true;
    order.push(steps[best].id);
  }
  return order.join(' ');
}

/** Explores the suite with one reduction and counts the kinds of schedule it ended. */
async function exploreWith(reduction, options) {
  const seen = new Map();
  const observe = (scenario, run) => {
    const key = `${scenario} | ${run.pace} | ${run.end} | ${kindOf(run.steps)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  };
  const results = await runHidden({ ...options, reduction, observe });
  return { results, seen };
}

const [repo, suiteFile, faultModelFile] = process.argv.slice(2);
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!repo || !suiteFile) {
    process.stderr.write('usage: node compare-reductions.mjs <repoDir> <suite.mjs> [<fault-model.json>]\n');
    process.exit(2);
  }
  const options = {
    suite: (await import(pathToFileURL(path.resolve(suiteFile)).href)).default,
    faultModel: faultModelFile ? JSON.parse(fs.readFileSync(faultModelFile, 'utf8')) : null,
    repoDir: path.resolve(repo), sandbox: true, outputLimitBytes: 1 << 20,
  };
  const summary = ({ results, seen }) => ({
    status: results.status,
    kinds: seen.size,
    twice: [...seen.values()].filter((n) => n > 1).length,
  });
  const sleep = await exploreWith('sleep-sets', options);
  const source = await exploreWith(true, options);
  process.stdout.write(`${JSON.stringify({
    sleepSets: summary(sleep),
    sourceSets: summary(source),
    missing: [...sleep.seen.keys()].filter((k) => !source.seen.has(k)),
    extra: [...source.seen.keys()].filter((k) => !sleep.seen.has(k)),
  }, null, 2)}\n`);
}
