// Random draws as one more thing the search varies. Each worker's generator is
// seeded by its name, so a schedule replays exactly, but then every schedule
// draws the same numbers. A draw the search may move is one of a worker's first
// `flipDraws`; moving it puts it in the other half of [0, 1), every other draw
// keeping its value (runtime/clock.js), so a shard, slot or branch picked from
// it goes the other way.
//
// Exploring the whole scenario again for every such draw would multiply the
// cost of every fix that draws, though most draws change nothing the code does
// (ids and tokens, a back-off a few milliseconds longer). So each draw is first
// tried in the first schedule it was made in: that schedule is replayed with the
// draw moved, and only if the code then does something else (another call,
// timer or delivery on offer, another key, another outcome, a property broken)
// is the scenario explored again with that draw moved. Values written do not
// count, and neither does time: where the replay can no longer follow the
// schedule only because the clock now stops at other moments (a timer of
// another length), the draw changed when things happen, which the explorer's
// own timing choices (delays, paces) explore, and the comparison ends there.

import { World } from './world.mjs';

/** The draws seen in the schedules explored so far, with the first schedule each was made in. */
export class DrawLog {
  #workers;
  #limit;
  #seen = new Map();

  /**
   * @param {string[]} workers the scenario's workers, in order
   * @param {number} limit how many of each worker's first draws may be moved
   */
  constructor(workers, limit) {
    this.#workers = workers;
    this.#limit = limit;
  }

  /**
   * Notes the draws a schedule made with no draw moved.
   * @param {World} world the schedule, run to its end
   * @param {string} pace the pace it ran at
   * @param {() => Array<{ chosen: string, offered: string[] }>} path the choice it took at each step, and those on offer
   */
  note(world, pace, path) {
    let schedule = null;
    for (const worker of this.#workers) {
      const count = Math.min(world.draws.get(worker) ?? 0, this.#limit);
      for (let draw = 0; draw < count; draw++) {
        const key = `${worker}#${draw}`;
        if (this.#seen.has(key)) continue;
        schedule ??= { pace, path: path(), shape: shapeOf(world) };
        this.#seen.set(key, { flip: { worker, draw }, ...schedule });
      }
    }
  }

  /** @returns {Array<{ flip: { worker: string, draw: number }, pace: string, path: object[], shape: string[] }>} in the order first seen */
  get seen() {
    return [...this.#seen.values()];
  }
}

/**
 * What a schedule did so far, leaving out what a draw can change without
 * changing behaviour: times, values written and timer lengths. Each step's
 * worker, operation and key, how each delivery ended, and the properties broken.
 * @returns {string[]}
 */
function shapeOf(world) {
  const steps = world.trace.filter((s) => s.operation !== 'random').map((s) => {
    const outcome = s.operation === 'handle' || s.operation === 'uncaught' ? `|${s.result}` : '';
    return `${s.worker}|${s.operation}|${s.key}${outcome}`;
  });
  return [...steps, ...[...world.violations.keys()].map((name) => `broken|${name}`)];
}

/** The choices on offer apart from the clock's stops at given moments (`advance:<ms>`), in order. */
const untimed = (ids) => ids.filter((id) => !id.startsWith('advance:')).join('|');

/**
 * Whether moving a draw changes what the code does: replays the first schedule
 * the draw was made in with the draw moved, as far as the clock lets it follow,
 * and compares what happened.
 * @returns {Promise<{ matters: boolean, steps: number }>} steps: how many steps the replay ran
 */
export async function drawMatters({ suite, scenario, pool, properties, workers, seen }) {
  await pool.prepare(workers);
  const world = new World(suite, scenario, pool, properties, { pace: seen.pace, flip: seen.flip });
  await world.start();
  if (world.errors.length > 0) return { matters: true, steps: 0 };
  let steps = 0;
  for (const { chosen, offered } of seen.path) {
    if (world.halted) break;
    const choices = world.choices();
    const ids = choices.map((c) => c.id);
    if (untimed(ids) !== untimed(offered)) return { matters: true, steps };
    const choice = choices.find((c) => c.id === chosen);
    if (!choice) break;
    await world.take(choice);
    steps += 1;
  }
  const now = shapeOf(world);
  const before = seen.shape;
  const complete = steps === seen.path.length;
  const same = now.every((line, i) => line === before[i]) && (!complete || now.length === before.length);
  return { matters: !same, steps };
}
