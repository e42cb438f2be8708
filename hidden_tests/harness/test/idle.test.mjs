// Tests of how the watchdog tells a run that waits from one that computes or is
// only starved by a busy machine (idle.mjs).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { IdleWatch, IDLE_WINDOW_MS, descendantsBusy } from '../idle.mjs';

/** Feeds a watch looks every pollMs for 30 s at a steady CPU share, after 400 ms of start-up at a full CPU; returns when it first said idle (0: never). */
function firstIdle({ share, busy = false, pollMs = 250, lookEvery = 1 }) {
  const watch = new IdleWatch({ pollMs });
  let cpuMs = 400;
  for (let look = 0, at = 400; at <= 30_000; look += 1, at += pollMs) {
    if (look % lookEvery === 0) {
      watch.add({ at, cpuMs, busy });
      if (watch.idle()) return at;
    }
    cpuMs += share * pollMs;
  }
  return 0;
}

test('a run that waits on a timer is idle just past the window', () => {
  for (const share of [0.001, 0.049]) {
    const at = firstIdle({ share });
    assert.ok(at >= IDLE_WINDOW_MS && at <= IDLE_WINDOW_MS + 1000, `share ${share}: idle first at ${at} ms`);
  }
});

test('a computing run is never idle', () => {
  assert.equal(firstIdle({ share: 1 }), 0);
});

test('a starved run is never idle, however little CPU it gets, while a thread of it is runnable', () => {
  assert.equal(firstIdle({ share: 0.001, busy: true }), 0);
});

test('a watchdog that itself looked too rarely over the window does not call the run idle', () => {
  assert.equal(firstIdle({ share: 0, lookEvery: 8 }), 0);
});

test('without a CPU reading, the threads\' states alone decide', () => {
  const watch = new IdleWatch({ pollMs: 250 });
  for (let at = 0; at <= IDLE_WINDOW_MS; at += 250) watch.add({ at, cpuMs: NaN, busy: false });
  assert.equal(watch.idle(), true);
});

test('a computing child is busy and a sleeping one is not, by /proc', async () => {
  const spinner = spawn(process.execPath, ['-e', 'for (;;) {}']);
  const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
  try {
    await new Promise((resolve) => { setTimeout(resolve, 500); });
    assert.equal(descendantsBusy(process.pid), true, 'the spinning child');
    spinner.kill('SIGKILL');
    await new Promise((resolve) => { spinner.on('exit', resolve); });
    await new Promise((resolve) => { setTimeout(resolve, 300); });
    assert.equal(descendantsBusy(process.pid), false, 'only the sleeping child is left');
  } finally {
    spinner.kill('SIGKILL');
    sleeper.kill('SIGKILL');
  }
});
