// Explores every schedule of a scenario: a stateless depth-first search over the
// choices the world offers at each step, re-running the scenario from scratch for
// each schedule. Sleep sets skip orders that only swap independent choices, which
// keeps the search exhaustive without visiting equivalent schedules twice.

import { World } from './world.mjs';
import { PROPERTIES } from './properties.mjs';
import { footprint, independent } from './events.mjs';
import { stuckReason } from './diagnosis.mjs';

/** Raised when the same choices lead to different behaviour: the code is not deterministic. */
export class Nondeterminism extends Error {}

/**
 * Explores one scenario and judges each of its tests.
 * @param {{ suite: object, scenario: object, host: import('./child-host.mjs').ChildHost, firstRun: number }} options
 * @returns {Promise<{ schedules: number, runs: number, verdicts: Map<string, {message: string, trace: object[], output: string}>, setupError?: string }>}
 */
export async function explore({ suite, scenario, host, firstRun }) {
  const wanted = scenario.tests.map((test) => test.property);
  const known = { ...PROPERTIES, ...suite.properties };
  const properties = wanted.map((name) => known[name]);
  const verdicts = new Map();
  const stack = [];
  let schedules = 0;
  let run = firstRun;
  let budget = suite.limits.maxSchedules;

  for (;;) {
    run += 1;
    const link = await host.forSchedule();
    link.output.take();
    const world = new World(suite, scenario, link, run, properties);
    await world.start();
    if (world.errors.length > 0) return { schedules, runs: run, verdicts, setupError: world.errors[0] };

    const complete = await followSchedule(world, stack, suite.limits.maxSteps);
    if (complete) {
      schedules += 1;
      if (complete === 'stuck') {
        const { message, steps } = stuckReason(world);
        for (const name of wanted) world.violate(name, `in one schedule the workers could not finish: ${message}`, steps);
      } else if (complete === 'too-long') {
        for (const name of wanted) world.violate(name, `a schedule ran for more than ${suite.limits.maxSteps} steps without finishing (a retry loop that never gives up?)`);
      } else {
        for (const property of properties) property.end?.(world);
      }
      const output = link.output.take();
      for (const [name, { message }] of world.violations) {
        if (wanted.includes(name) && !verdicts.has(name)) {
          verdicts.set(name, { message, trace: world.traceFor(name), output });
        }
      }
    }
    if (verdicts.size > 0) budget = Math.min(budget, schedules + suite.limits.maxSchedulesAfterFailure);
    if (verdicts.size === wanted.length || !backtrack(stack) || schedules >= budget) {
      return { schedules, runs: run, verdicts };
    }
  }
}

/**
 * Runs one schedule: replays the stack's choices, then extends it with first choices.
 * @returns {Promise<'done'|'stuck'|'too-long'|null>} null when the rest only repeats explored orders
 */
async function followSchedule(world, stack, maxSteps) {
  let sleep = new Map();
  for (let depth = 0; ; depth++) {
    const choices = world.choices();
    const ops = choices.filter((c) => c.kind === 'op');
    if (choices.length === 0 || (world.finished() && ops.length === 0)) {
      if (depth < stack.length) throw new Nondeterminism('a replayed schedule ended early');
      return world.finished() ? 'done' : 'stuck';
    }
    if (depth >= maxSteps) return 'too-long';
    const ids = choices.map((c) => c.id);
    let node = stack[depth];
    if (node) {
      if (node.ids.join('|') !== ids.join('|')) {
        throw new Nondeterminism(`replaying a schedule offered ${ids.join(', ')} instead of ${node.ids.join(', ')}`);
      }
    } else {
      const awake = choices.findIndex((c) => !sleep.has(c.id));
      if (awake < 0) return null;
      node = { ids, footprints: new Map(choices.map((c) => [c.id, footprint(c, world.now)])), sleep, done: [], index: awake };
      stack.push(node);
    }
    const chosen = choices[node.index];
    const mine = node.footprints.get(chosen.id);
    const next = new Map();
    for (const [id, fp] of [...node.sleep, ...node.done.map((d) => [d, node.footprints.get(d)])]) {
      if (independent(fp, mine)) next.set(id, fp);
    }
    sleep = next;
    await world.take(chosen);
  }
}

/** Moves the stack to the next unexplored schedule; false when none is left. */
function backtrack(stack) {
  while (stack.length > 0) {
    const node = stack[stack.length - 1];
    node.done.push(node.ids[node.index]);
    for (let i = node.index + 1; i < node.ids.length; i++) {
      if (!node.sleep.has(node.ids[i])) {
        node.index = i;
        return true;
      }
    }
    stack.pop();
  }
  return false;
}
