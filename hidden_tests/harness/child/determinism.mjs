// Replaces every source of real time and randomness in the child with a virtual one,
// so that the same schedule always produces the same behaviour.
//
// Timers registered by learner code become events the supervisor schedules; Date and
// performance report the virtual clock; Math.random and crypto draw from a seeded
// generator. Everything must be installed before any learner module is imported.

import { syncBuiltinESMExports } from 'node:module';
import crypto from 'node:crypto';
import timers from 'node:timers';
import timersPromises from 'node:timers/promises';

/** Wall-clock origin of virtual time: the incident's morning. */
const EPOCH_MS = Date.UTC(2026, 2, 14, 13, 27, 0);

const RealDate = Date;

/**
 * Installs the virtual clock and deterministic randomness.
 * @param {{ now: () => number, addTimer: (ms: number, fire: () => void, repeat: boolean) => object,
 *           clearTimer: (handle: object) => void }} clock virtual clock owned by the relay
 * @returns {{ reseed: (seed: number) => void }}
 */
export function installDeterminism(clock) {
  let state = 1;
  const next = () => {
    // xorshift32: small, fast, and the same on every run.
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state;
  };
  const randomBytes = (size) => {
    const bytes = Buffer.alloc(size);
    for (let i = 0; i < size; i++) bytes[i] = next() & 0xff;
    return bytes;
  };

  class VirtualDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(EPOCH_MS + clock.now());
      else super(...args);
    }
    static now() { return EPOCH_MS + clock.now(); }
  }
  globalThis.Date = VirtualDate;
  Math.random = () => next() / 0x100000000;
  globalThis.performance.now = () => clock.now();

  const setTimeoutV = (fn, ms, ...args) => clock.addTimer(ms, () => fn(...args), false);
  const setIntervalV = (fn, ms, ...args) => clock.addTimer(ms, () => fn(...args), true);
  const clearV = (handle) => clock.clearTimer(handle);
  const sleep = (ms, value) => new Promise((resolve) => { clock.addTimer(ms, () => resolve(value), false); });

  globalThis.setTimeout = setTimeoutV;
  globalThis.setInterval = setIntervalV;
  globalThis.clearTimeout = clearV;
  globalThis.clearInterval = clearV;
  timers.setTimeout = setTimeoutV;
  timers.setInterval = setIntervalV;
  timers.clearTimeout = clearV;
  timers.clearInterval = clearV;
  timersPromises.setTimeout = sleep;
  crypto.randomBytes = (size, callback) => {
    const bytes = randomBytes(size);
    if (callback) { callback(null, bytes); return undefined; }
    return bytes;
  };
  crypto.randomUUID = () => {
    const b = randomBytes(16);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  crypto.randomInt = (min, max) => {
    if (max === undefined) { max = min; min = 0; }
    return min + Math.floor(Math.random() * (max - min));
  };
  globalThis.crypto.randomUUID = crypto.randomUUID;
  globalThis.crypto.getRandomValues = (array) => {
    const bytes = randomBytes(array.byteLength);
    new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(bytes);
    return array;
  };
  syncBuiltinESMExports();

  return { reseed(seed) { state = (seed >>> 0) || 1; } };
}
