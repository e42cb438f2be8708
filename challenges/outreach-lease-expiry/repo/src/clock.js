/**
 * The clock every component is given.
 *
 * Only this file and src/main.js touch Date or the timer functions. Everything
 * else receives a Clock, so the tests can run a whole batch, a frozen worker or
 * an expired claim on a clock that only moves when they say so.
 *
 * @typedef {object} Clock
 * @property {() => number} now milliseconds since the epoch
 * @property {(ms: number) => Promise<void>} sleep resolves once `ms` milliseconds have passed
 */

import { setTimeout as wait } from 'node:timers/promises';

/**
 * Wall-clock time, for production.
 * @type {Clock}
 */
export const wallClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms) => wait(ms),
});

/**
 * Formats a duration the way the dashboards do: "42m07s", "3.2s", "480ms".
 * @param {number} ms
 * @returns {string}
 */
export function formatDuration(ms) {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, '0')}s`;
}
