/**
 * The passage of time, injected.
 *
 * Only this file and src/main.js touch Date and timers. Everything else takes a
 * clock as a dependency, so a test can hand in one whose time moves only when
 * the test says so.
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
