/**
 * The one place that reads real time.
 *
 * Every component gets a Clock passed in instead of calling Date.now() or
 * setTimeout itself, so that tests can drive time by hand.
 *
 * @typedef {object} Clock
 * @property {() => number} now milliseconds since the epoch
 * @property {(ms: number) => Promise<void>} sleep resolves once `ms` milliseconds have passed
 */

import { setTimeout as wait } from 'node:timers/promises';

/** @type {Clock} */
export const systemClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms) => wait(ms),
});
