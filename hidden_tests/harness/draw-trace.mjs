// What a schedule's world knows of its workers' random draws: how many each
// worker's code has made so far, and where the one draw the schedule moves (its
// variant's flip, see draws.mjs) happened, shown in the trace as a `random` step.

import { ordinal } from './describe.mjs';

/**
 * Notes a worker's random draws so far, as its answer reported them, and says
 * in the trace when the one drawn the other way was among the new ones.
 * @param {import('./world.mjs').World} world
 * @param {string} worker
 * @param {number} draws the worker's draws in this schedule so far
 */
export function noteDraws(world, worker, draws) {
  const before = world.draws.get(worker) ?? 0;
  world.draws.set(worker, draws);
  const { flip } = world;
  if (flip?.worker !== worker || flip.draw < before || flip.draw >= draws) return;
  world.flipped = true;
  world.step(worker, 'random', '', `its ${ordinal(flip.draw + 1)} random number (Math.random() or crypto.randomInt()) is drawn `
    + 'from the other half of [0, 1) this time: the explorer tries each worker\'s first draws both ways');
}
