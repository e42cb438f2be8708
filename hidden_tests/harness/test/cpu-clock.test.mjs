import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CpuClock } from '../cpu-clock.mjs';

test('a CPU clock reads the CPU time a process has used, again and again from one open file', () => {
  const clock = new CpuClock(process.pid);
  const before = clock.ms();
  const end = process.cpuUsage().user + 200_000;
  while (process.cpuUsage().user < end);
  const after = clock.ms();
  const used = process.cpuUsage();
  assert.ok(after - before >= 150, `${after - before} ms counted for 200 ms of work`);
  assert.ok(Math.abs(after - (used.user + used.system) / 1000) <= 50, `${after} ms against ${(used.user + used.system) / 1000} ms`);
  clock.close();
  assert.equal(clock.ms(), undefined);
});

test('a CPU clock of a process that does not exist reads nothing', () => {
  assert.equal(new CpuClock(2 ** 30).ms(), undefined);
  assert.equal(new CpuClock(undefined).ms(), undefined);
});
