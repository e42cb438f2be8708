// Virtual time for the visible tests: nothing here waits for real time, so a
// test gives the same result on every run, however busy the machine is.
//
// Every call to the store or another service is a round trip: one turn of the
// event loop, during which the clock stands still and the other workers get to
// run. Sleeps wait on the clock. Once no call is on the wire (every worker is
// asleep, waiting for something else, or done), the clock jumps to the
// earliest wake-up time and wakes everyone due then, in the order they fell
// asleep. So a 5 ms sleep ends before a 900 ms one, a key written with a TTL
// expires when its time has come, and a worker that polls or backs off, by
// fixed or random amounts, wakes up exactly as it would in production.

import { setImmediate as nextTurn } from 'node:timers/promises';

/** How far virtual time may run before the test gives up on the sleepers. */
const HORIZON_MS = 60 * 60 * 1000;

/**
 * Creates the virtual time of one test.
 *
 * @param {{ start?: number }} [options] epoch ms the clock starts at
 * @returns {{
 *   clock: { now(): number, sleep(ms: number): Promise<void> },
 *   roundTrip(): Promise<void>,
 * }} `clock` is what the workers get; `roundTrip` is awaited by every fake
 *   service call before it reaches the data
 */
export function createVirtualTime({ start = Date.parse('2026-03-14T09:00:00.000Z') } = {}) {
  let now = start;
  let onTheWire = 0;
  let fellAsleep = 0;
  let moving = false;
  /** @type {{ at: number, order: number, wake: () => void, fail: (error: Error) => void }[]} */
  const sleepers = [];

  // Runs while anyone sleeps: waits for a turn with no call on the wire, then
  // moves the clock to the earliest wake-up time and wakes whoever is due.
  async function moveOn() {
    moving = true;
    while (sleepers.length > 0) {
      await nextTurn();
      if (onTheWire > 0) continue;
      sleepers.sort((a, b) => a.at - b.at || a.order - b.order);
      if (sleepers[0].at > start + HORIZON_MS) {
        const error = new Error(`the workers were still sleeping after ${HORIZON_MS / 60_000} minutes of virtual time without finishing`);
        for (const sleeper of sleepers.splice(0)) sleeper.fail(error);
        break;
      }
      now = Math.max(now, sleepers[0].at);
      while (sleepers.length > 0 && sleepers[0].at <= now) sleepers.shift().wake();
    }
    moving = false;
  }

  const clock = Object.freeze({
    now: () => now,
    sleep: (ms) => new Promise((wake, fail) => {
      sleepers.push({ at: now + Math.max(0, Number(ms) || 0), order: fellAsleep++, wake, fail });
      if (!moving) moveOn();
    }),
  });

  return {
    clock,
    async roundTrip() {
      onTheWire += 1;
      try {
        await nextTurn();
      } finally {
        onTheWire -= 1;
      }
    },
  };
}
