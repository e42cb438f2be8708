/**
 * The real clock. Everything else gets a clock injected, so tests can run on
 * virtual time.
 *
 * @typedef {object} Clock
 * @property {() => number} now milliseconds since the epoch
 * @property {(ms: number) => Promise<void>} sleep resolves after `ms` milliseconds
 */

/** @type {Clock} */
export const systemClock = Object.freeze({
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
});
