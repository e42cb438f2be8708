// Explores every schedule of a scenario: a stateless depth-first search over the
// choices the world offers at each step, re-running the scenario from scratch for
// each schedule. Two reductions skip schedules that only swap independent
// choices, keeping the search exhaustive: sleep sets (a choice explored at a
// step is not tried again after a step it commutes with) and source sets
// (source-sets.mjs: beyond the first choice at a step, only those that a run
// showed to lead somewhere new). Sleep sets alone skip only schedules
// equivalent to one explored before, so the first counterexample they find is
// the one the search without any reduction finds (`reduction: false`, for the
// harness test that checks so and for the benchmark). Source sets may skip
// such a first counterexample for a later, equivalent one, so they run only
// until a property fails: if they had left out a choice by then, the search
// starts again with sleep sets alone and reports what that finds (the verdicts
// of the first search stand for any property the budget leaves it unable to
// decide again); if they had not, it goes on with sleep sets alone from there.
// A scenario whose tests all hold is explored with both throughout, and that
// is where exploring costs most. Whether two choices commute is judged
// (events.mjs) on what a taken one did: a store call that changed nothing is a
// read in the state where it was taken.
//
// A call completes as soon as it can unless the clock moves on while it is in
// flight, and the clock stops only where something is due (a timer, a
// delivery, a call becoming ready), each stop past a ready call costing one of
// the scenario's delays (`maxDelays`). So a call rarely takes as long as the
// fault model allows, and several slow calls in a row, or one ending where
// nothing is due (past a window's end, a lease's end measured by the code),
// never do. Every scenario whose latencies vary is therefore explored twice,
// at two paces: first with calls at their quickest (delays then pick which are
// slower), then, from scratch, with every call at the slowest its latency
// range allows, so that work slower than its lease, a wait that gives up
// early, or a retry that lands in a window left by slow calls meets the
// boundary of the model too. A scenario whose slow pace costs too much says
// `paces: 1` and keeps the first. One that says `paces: 3` is then explored
// with each worker alone at the slow end while the others are at the quick end
// (without delays, which would multiply a poller's schedules), so that a
// lease shorter than its holder's slowest work runs out while another worker,
// quick, takes over and finishes first.
//
// Randomness replays (each worker's generator is seeded by its name), so the
// numbers a fix draws would otherwise be the same in every schedule, and a fix
// whose race needs two workers to pick alike (or apart) would never meet it.
// So once the paces are explored, each of every worker's first draws
// (`flipDraws`, default 4) is tried in the other half of [0, 1): where that
// changes what the code does (draws.mjs), the scenario is explored once more
// with that draw moved. A fix that draws nothing costs nothing more, and one
// whose draws change nothing (ids, tokens, most back-off lengths) costs a
// replay of one schedule per draw.
//
// Exploration has three outcomes per property, never two: a counterexample (the
// first schedule that breaks it), proven (every schedule explored, none broke it),
// or not finished (a budget ran out first). Budgets are counts of schedules and
// steps, never time, so the same code gets the same outcome on any machine.
//
// Work counts what the search really runs: every step of every run, the replayed
// prefix included, and runs that end early because the rest would only repeat an
// explored order (they count no schedule), plus a fixed cost for restarting each
// worker. It bounds the CPU time a scenario can take whatever the code does.

import { World } from './world.mjs';
import { PROPERTIES } from './properties.mjs';
import { footprint, independent, takenFootprint } from './events.mjs';
import { stuckReason } from './diagnosis.mjs';
import { addSourceSets, firstTries } from './source-sets.mjs';
import { tieOf, noTies } from './ties.mjs';
import { ordinal } from './describe.mjs';
import { DrawLog, drawMatters } from './draws.mjs';

/** The work of restarting one worker for a run, in steps: a fresh realm and module graph cost about that many steps. */
export const RESTART_WORK = 10;

/** Raised when the same choices lead to different behaviour: the code is not deterministic. */
export class Nondeterminism extends Error {}

/**
 * @typedef {object} Exploration
 * @property {number} schedules schedules explored to their end
 * @property {number} longest the most steps one schedule took
 * @property {number} work steps run in all, restarts included (see above)
 * @property {Map<string, {message: string, trace: object[], output: string}>} verdicts counterexamples by property
 * @property {null | 'budget' | 'steps' | 'work' | 'after-failure'} unfinished why the search stopped before the end, if it did
 * @property {{ calls: number, timers: number }} busiest the most calls and timers one delivery made
 * @property {{ most: number, example: string | null }} ties the most ties one schedule had (ties.mjs), and that schedule's first
 * @property {number} cutShort schedules a failing property ended early, on which the other properties were not judged
 * @property {string} [setupError] why the workers could not even start
 */

/**
 * Explores one scenario and judges each of its tests.
 * @param {{ suite: object, scenario: object, pool: import('./worker-pool.mjs').WorkerPool,
 *   reduction?: boolean | 'sleep-sets', observe?: (run: { end: string, pace: string, flip: object | null, steps: Array<{ id: string, footprint: object }>,
 *     trace: object[] }) => void }} options
 *   reduction false explores every order, the equivalent ones included, 'sleep-sets' uses those
 *   alone; observe is told each schedule explored to its end (harness tests compare reductions with it)
 * @returns {Promise<Exploration>}
 */
export async function explore({ suite, scenario, pool, reduction = true, observe }) {
  const wanted = scenario.tests.map((test) => test.property);
  const known = { ...PROPERTIES, ...suite.properties };
  const properties = [...new Set(wanted)].map((name) => known[name]);
  const workers = [...new Set(scenario.deliveries.map((d) => d.worker))];
  const { maxSchedules, maxSchedulesAfterFailure, maxSteps, maxWork } = scenario.limits;
  const outcome = { schedules: 0, longest: 0, work: 0, verdicts: new Map(), unfinished: null, busiest: { calls: 0, timers: 0 }, ties: noTies(), cutShort: 0 };
  let stack = [];
  const paces = pacesOf(scenario);
  const variants = paces.map((pace) => ({ pace, flip: null }));
  const draws = new DrawLog(workers, scenario.limits.flipDraws);
  let drawsTried = false;
  let variant = 0;
  let budget = maxSchedules;
  let sourceSets = reduction === true;
  let pruned = false;
  let found = new Map();
  const unfinished = (why) => {
    outcome.unfinished = why;
    for (const [name, verdict] of found) if (!outcome.verdicts.has(name)) outcome.verdicts.set(name, verdict);
    return outcome;
  };

  for (;;) {
    await pool.prepare(workers);
    const world = new World(suite, scenario, pool, properties, variants[variant]);
    await world.start();
    if (world.errors.length > 0) return { ...outcome, setupError: world.errors[0] };

    const from = Math.max(stack.length - 1, 0);
    const { end, steps, last, ties } = await followSchedule(world, stack, maxSteps, reduction !== false, sourceSets);
    if (!world.flip) draws.note(world, variants[variant].pace, () => stack.map((node) => ({ chosen: node.ids[node.index], offered: node.ids })));
    outcome.work += RESTART_WORK * workers.length + steps;
    outcome.longest = Math.max(outcome.longest, steps);
    const busiest = world.busiestDelivery();
    outcome.busiest = { calls: Math.max(outcome.busiest.calls, busiest.calls), timers: Math.max(outcome.busiest.timers, busiest.timers) };
    if (ties.most > outcome.ties.most) outcome.ties = ties;
    if (end === 'too-long') return unfinished('steps');
    if (sourceSets) addSourceSets(stack, last, from, end !== null);
    if (end) {
      outcome.schedules += 1;
      if (end === 'halted') outcome.cutShort += 1;
      if (end === 'stuck') {
        const { message, steps: highlighted } = stuckReason(world);
        for (const name of wanted) world.violate(name, `in one schedule the workers could not finish: ${message}`, highlighted);
      } else if (end === 'done') {
        for (const property of properties) property.end?.(world);
      }
      for (const [name, { message }] of world.violations) {
        if (wanted.includes(name) && !outcome.verdicts.has(name)) {
          outcome.verdicts.set(name, { message: withVariant(message, world), trace: world.traceFor(name), output: world.output });
        }
      }
      observe?.({ end, ...variants[variant], steps: stack.map((node) => ({ id: node.ids[node.index], footprint: node.footprints.get(node.ids[node.index]) })),
        trace: world.traceFor(null) });
    }
    if (sourceSets && outcome.verdicts.size > 0) {
      // From the first counterexample on, sleep sets alone (see the top of this file).
      sourceSets = false;
      if (pruned) {
        found = outcome.verdicts;
        Object.assign(outcome, { schedules: 0, verdicts: new Map(), cutShort: 0 });
        stack = [];
        variant = 0;
        budget = maxSchedules;
        if (outcome.work >= maxWork) return unfinished('work');
        continue;
      }
    }
    if (outcome.verdicts.size > 0) budget = Math.min(budget, outcome.schedules + maxSchedulesAfterFailure);
    const decided = wanted.every((name) => outcome.verdicts.has(name));
    if (decided) return outcome;
    const next = backtrack(stack, sourceSets);
    pruned ||= next.pruned;
    if (!next.more && ++variant === variants.length) {
      if (drawsTried) return outcome;
      drawsTried = true;
      for (const seen of draws.seen) {
        const { matters, steps: tried } = await drawMatters({ suite, scenario, pool, properties, workers, seen });
        outcome.work += RESTART_WORK * workers.length + tried;
        if (matters) variants.push({ pace: seen.pace, flip: seen.flip });
        if (outcome.work >= maxWork) return unfinished('work');
      }
      if (variant === variants.length) return outcome;
    }
    if (outcome.work >= maxWork) return unfinished('work');
    if (outcome.schedules >= budget) return unfinished(budget < maxSchedules ? 'after-failure' : 'budget');
  }
}

/**
 * The paces a scenario is explored at: where some call's latency varies, first
 * the quick end ('quick', or 'any' where delays let some calls be slower), then
 * the slow end (not when the scenario's limits say `paces: 1`), then, where
 * they say `paces: 3`, each worker alone at the slow end while the others'
 * calls are at their quickest, without delays ('slow:<worker>'); else the one
 * pace 'any'. Limits that list the paces ('quick', 'slow', 'slow:<worker>')
 * get those, in their order.
 * @returns {string[]}
 */
export function pacesOf(scenario) {
  const first = scenario.limits.maxDelays > 0 ? 'any' : 'quick';
  if (scenario.limits.paces === 1) return [first];
  const ranges = [
    [0, scenario.limits.maxLatencyMs],
    ...(scenario.effects ?? []).map((e) => e.latencyMs),
    ...Object.values(scenario.services ?? {}).map((s) => s?.latencyMs),
  ].filter(Boolean);
  if (!ranges.some(([min, max]) => max > min)) return ['any'];
  if (Array.isArray(scenario.limits.paces)) return scenario.limits.paces.map((pace) => (pace === 'quick' ? first : pace));
  const workers = [...new Set((scenario.deliveries ?? []).map((d) => d.worker))];
  const alone = scenario.limits.paces === 3 && workers.length > 1 ? workers.map((w) => `slow:${w}`) : [];
  return [first, 'slow', ...alone];
}

/** A counterexample's message, with what was special about its schedule: its pace, a draw moved. */
function withVariant(message, world) {
  const notes = [];
  if (world.slow) notes.push('every call took as long as the fault model allows');
  if (world.slowWorker) notes.push(`every call of ${world.slowWorker} took as long as the fault model allows, while the other workers' were as quick as it allows`);
  if (world.flipped) notes.push(`${world.flip.worker}'s ${ordinal(world.flip.draw + 1)} random number was drawn from the other half of [0, 1)`);
  return notes.length > 0 ? `${message} (in this schedule ${notes.join(', and ')})` : message;
}

/**
 * Runs one schedule: replays the stack's choices, then extends it with first choices.
 * @returns {Promise<{ end: 'done'|'stuck'|'halted'|'too-long'|null, steps: number, ties: { most: number, example: string | null },
 *   last?: { ids: string[], footprints: Map<string, object>, waiting: Map<string, object> } }>}
 *   end is null when the rest only repeats explored orders; halted when a property ended the schedule early;
 *   ties counts the run's timers that tied (ties.mjs) and names the first tie; last is what the world offered where the
 *   run ended (with source sets, and not when it was too long)
 */
async function followSchedule(world, stack, maxSteps, sleepSets, sourceSets) {
  let sleep = new Map();
  const ties = noTies();
  const tied = new Set();
  for (let depth = 0; ; depth++) {
    const choices = world.choices();
    const tie = tieOf(world, choices);
    if (tie && !tied.has(tie.timer)) {
      tied.add(tie.timer);
      ties.most += 1;
      ties.example ??= tie.text;
    }
    const ops = choices.filter((c) => c.kind === 'op');
    // What source sets need to know of a step beyond its choices (source-sets.mjs).
    const waiting = () => new Map(world.blocked().map((op) => [op.id, footprint({ kind: 'op', op }, world)]));
    const last = () => sourceSets && { ids: choices.map((c) => c.id), footprints: new Map(choices.map((c) => [c.id, footprint(c, world)])), waiting: waiting() };
    if (world.halted) return { end: 'halted', steps: depth, ties, last: last() };
    // Once every delivery has ended, the schedule goes on while a call is still
    // on its way: one sent and not awaited lands all the same, at any pace.
    const inFlight = world.pending.some((op) => !world.crashed.has(op.worker)) || world.held.length > 0;
    if (choices.length === 0 || (world.finished() && ops.length === 0 && !inFlight)) {
      if (depth < stack.length) throw new Nondeterminism('a replayed schedule ended early');
      return { end: world.finished() ? 'done' : 'stuck', steps: depth, ties, last: last() };
    }
    if (depth >= maxSteps) return { end: 'too-long', steps: depth, ties };
    const ids = choices.map((c) => c.id);
    let node = stack[depth];
    if (node) {
      if (node.ids.join('|') !== ids.join('|')) {
        throw new Nondeterminism(`replaying a schedule offered ${ids.join(', ')} instead of ${node.ids.join(', ')}`);
      }
    } else {
      const awake = choices.findIndex((c) => !sleep.has(c.id));
      if (awake < 0) return { end: null, steps: depth, ties, last: last() };
      const footprints = new Map(choices.map((c) => [c.id, footprint(c, world)]));
      const backtrack = sourceSets ? firstTries(ids, footprints, sleep) : new Set([ids[awake]]);
      node = { ids, footprints, sleep, done: [], index: awake, backtrack, holders: choices.clockHolders, waiting: sourceSets && waiting() };
      stack.push(node);
    }
    const chosen = choices[node.index];
    const version = world.store.version;
    await world.take(chosen);
    const mine = takenFootprint(node.footprints.get(chosen.id), world.store.version === version);
    node.footprints.set(chosen.id, mine);
    const next = new Map();
    for (const [id, fp] of [...node.sleep, ...node.done.map((d) => [d, node.footprints.get(d)])]) {
      if (independent(fp, mine)) next.set(id, fp);
    }
    sleep = sleepSets ? next : new Map();
  }
}

/**
 * Moves the stack to the next unexplored schedule: at the deepest step with a
 * choice left that is neither explored nor asleep (and, with source sets, in
 * the step's backtrack set), the first such choice.
 * @returns {{ more: boolean, pruned: boolean }} more false when no schedule is left; pruned when
 *   source sets left out a choice that sleep sets alone would have taken instead
 */
function backtrack(stack, sourceSets) {
  let pruned = false;
  while (stack.length > 0) {
    const node = stack[stack.length - 1];
    node.done.push(node.ids[node.index]);
    for (let i = 0; i < node.ids.length; i++) {
      const id = node.ids[i];
      if (node.sleep.has(id) || node.done.includes(id)) continue;
      if (!sourceSets || node.backtrack.has(id)) {
        node.index = i;
        return { more: true, pruned };
      }
      pruned = true;
    }
    stack.pop();
  }
  return { more: false, pruned };
}
