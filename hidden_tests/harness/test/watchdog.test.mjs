// Tests of the watchdog, the container's first process: it passes the supervisor's
// exit code and streams through untouched, and ends a run that outlives its deadline
// or spends its CPU budget. On a host the CPU time read is that of the host's cgroup,
// which other processes add to: the budgets here are either far out of reach or
// meant to be reached.
// Each test runs a copy of watchdog.mjs beside a stand-in supervisor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const watchdog = fileURLToPath(new URL('../watchdog.mjs', import.meta.url));

/** Runs the watchdog with args beside a supervisor made of source, feeding it input. */
function runWatchdog(supervisorSource, args, input = '') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'racecase-watchdog-'));
  fs.copyFileSync(watchdog, path.join(dir, 'watchdog.mjs'));
  fs.copyFileSync(new URL('../idle.mjs', import.meta.url), path.join(dir, 'idle.mjs'));
  fs.writeFileSync(path.join(dir, 'supervisor.mjs'), supervisorSource);
  return spawnSync(process.execPath, [path.join(dir, 'watchdog.mjs'), ...args], { input, encoding: 'utf8', timeout: 60_000 });
}

test('the supervisor gets the suite and stdin, and its output and exit code come back', () => {
  const echo = "import fs from 'node:fs';\n" +
    "process.stdout.write(`${process.argv[2]}:${fs.readFileSync(0, 'utf8')}`);\n" +
    "process.stderr.write('to stderr');\nprocess.exit(7);\n";
  const run = runWatchdog(echo, ['60000', '600000', 'hidden'], '{"nonce":"n"}');
  assert.equal(run.stdout, 'hidden:{"nonce":"n"}');
  assert.equal(run.stderr, 'to stderr');
  assert.equal(run.status, 7);
});

test('a supervisor that outlives the deadline is killed and the exit code is 124', () => {
  const pidFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'racecase-watchdog-pid-')), 'pid');
  const loop = `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nfor (;;) {}\n`;
  const run = runWatchdog(loop, ['5000', '600000', 'visible']);
  assert.equal(run.status, 124, run.stderr);
  assert.match(run.stderr, /passed its deadline of 5000 ms/);
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the looping supervisor is still alive');
});

test('a supervisor that spends its CPU budget is killed and the exit code is 128 + SIGXCPU', () => {
  const run = runWatchdog('for (;;) {}\n', ['60000', '1000', 'visible']);
  assert.equal(run.status, 128 + os.constants.signals.SIGXCPU, run.stderr);
  assert.match(run.stderr, /used its 1000 ms of CPU time/);
});

test('a supervisor killed by a signal gives 128 plus the signal', () => {
  const run = runWatchdog("process.kill(process.pid, 'SIGKILL');\n", ['60000', '600000', 'visible']);
  assert.equal(run.status, 128 + os.constants.signals.SIGKILL);
});

test('a command line without a deadline is refused', () => {
  for (const args of [[], ['visible'], ['100', 'visible'], ['0', '100', 'visible'], ['100', '1.5', 'visible'], ['100', '100']]) {
    const run = runWatchdog('process.exit(0);\n', args);
    assert.equal(run.status, 2, `args ${JSON.stringify(args)}`);
    assert.match(run.stderr, /usage/);
  }
});
