/**
 * The service's notion of time.
 *
 * Only this file and src/main.js may touch Date or the timer functions. Every
 * other module gets a clock handed in, so that tests can use one that moves
 * only when they say so.
 *
 * @typedef {object} Clock
 * @property {() => number} now milliseconds since the epoch
 * @property {(ms: number) => Promise<void>} sleep resolves once `ms` milliseconds have passed
 */

import { setTimeout as wait } from 'node:timers/promises';

/** The wall clock, for production. @type {Clock} */
export const wallClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms) => wait(ms),
});
