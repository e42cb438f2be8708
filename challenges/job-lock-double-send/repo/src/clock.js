/**
 * Time, as the rest of the service sees it.
 *
 * Nothing outside this file and src/main.js touches Date or timers directly:
 * every component receives a clock, so tests can hand in one they control.
 *
 * @typedef {object} Clock
 * @property {() => number} now current time in milliseconds since the epoch
 * @property {(ms: number) => Promise<void>} sleep resolves after `ms` milliseconds
 */

import { setTimeout as delay } from 'node:timers/promises';

/**
 * The real clock, used in production.
 * @type {Clock}
 */
export const systemClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms) => delay(ms),
});
