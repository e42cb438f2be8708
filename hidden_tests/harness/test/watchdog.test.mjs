// Tests of the watchdog, the container's first process: it passes the supervisor's
// exit code and streams through untouched, marks the start of the run, starts the
// budgets only when the payload arrives, and ends a run that outlives its deadline
// or spends its CPU budget. On a host the CPU time read is that of the host's cgroup,
// which other processes add to: the budgets here are either far out of reach or
// meant to be reached.
// Each test runs a copy of watchdog.mjs beside a stand-in supervisor.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp-dirs.mjs';

const watchdog = fileURLToPath(new URL('../watchdog.mjs', import.meta.url));

/** The start marker the watchdog prints on stderr when the payload arrives. */
const STARTED = /^\x1eracecase-started (\d+|-)\n/;

/** Copies the watchdog into a fresh directory beside a supervisor made of source; returns the watchdog's path. */
function install(supervisorSource) {
  const dir = tempDir('watchdog');
  fs.copyFileSync(watchdog, path.join(dir, 'watchdog.mjs'));
  fs.copyFileSync(new URL('../idle.mjs', import.meta.url), path.join(dir, 'idle.mjs'));
  fs.writeFileSync(path.join(dir, 'supervisor.mjs'), supervisorSource);
  return path.join(dir, 'watchdog.mjs');
}

/** Runs the watchdog with args beside a supervisor made of source, feeding it input. */
function runWatchdog(supervisorSource, args, input = '') {
  return spawnSync(process.execPath, [install(supervisorSource), ...args], { input, encoding: 'utf8', timeout: 60_000 });
}

/** The start of a supervisor: the handshake with the watchdog, with no payload to wait for. */
const announce = "import { writeSync as announceW, readSync as announceR } from 'node:fs';\n" +
  "announceW(3, '!');\nannounceR(3, Buffer.alloc(1));\n";

/** A supervisor that echoes its payload and exits 7, after the handshake with the watchdog. */
const echo = "import fs from 'node:fs';\n" +
  "const first = Buffer.alloc(1 << 16);\nconst n = fs.readSync(0, first);\n" +
  "fs.writeSync(3, '!');\nfs.readSync(3, Buffer.alloc(1));\nfs.closeSync(3);\n" +
  "const payload = Buffer.concat([first.subarray(0, n), fs.readFileSync(0)]).toString('utf8');\n" +
  "process.stdout.write(`${process.argv.length - 2} args:${payload}`);\n" +
  "process.stderr.write('to stderr');\nprocess.exit(7);\n";

test('the supervisor gets stdin, and its output and exit code come back after the start marker', () => {
  const run = runWatchdog(echo, ['60000', '600000'], '{"nonce":"n"}');
  assert.equal(run.stdout, '0 args:{"nonce":"n"}');
  assert.match(run.stderr, STARTED);
  assert.equal(run.stderr.replace(STARTED, ''), 'to stderr');
  assert.equal(run.status, 7);
});

test('the suite the container is for reaches the supervisor, and nothing else does', () => {
  const run = runWatchdog(echo.replace('${process.argv.length - 2} args', '${process.argv.slice(2).join()} args'), ['60000', '600000', 'visible'], 'x');
  assert.equal(run.stdout, 'visible args:x');
  assert.equal(run.status, 7);
});

test('the budgets start when the payload arrives, not while the supervisor boots and waits', async () => {
  // The supervisor spends more CPU time booting than the whole CPU budget, which also
  // takes longer than the deadline, and only then waits for its payload: neither
  // counts, and the supervisor's own exit code comes back.
  const booting = "const until = process.cpuUsage().user + 1_500_000;\nwhile (process.cpuUsage().user < until);\n" +
    "process.stdout.write('booted;');\n" + echo;
  const child = spawn(process.execPath, [install(booting), '1000', '1000'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const booted = new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (stdout.startsWith('booted;')) resolve();
    });
  });
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const closed = new Promise((resolve) => child.on('close', resolve));
  await Promise.race([booted, closed]);
  assert.equal(stderr, '', 'the watchdog marked a start or stopped the run before any payload');
  child.stdin.end('{"nonce":"late"}');
  assert.equal(await closed, 7, stderr);
  assert.equal(stdout, 'booted;0 args:{"nonce":"late"}');
  assert.match(stderr, STARTED);
});

test('a supervisor that outlives the deadline is killed and the exit code is 124', () => {
  const pidFile = path.join(tempDir('watchdog-pid'), 'pid');
  const loop = `${announce}import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\nfor (;;) {}\n`;
  const run = runWatchdog(loop, ['5000', '600000']);
  assert.equal(run.status, 124, run.stderr);
  assert.match(run.stderr, /passed its deadline of 5000 ms/);
  const pid = Number(fs.readFileSync(pidFile, 'utf8'));
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, 'the looping supervisor is still alive');
});

test('a supervisor that spends its CPU budget is killed and the exit code is 128 + SIGXCPU', () => {
  const run = runWatchdog(`${announce}for (;;) {}\n`, ['60000', '1000']);
  assert.equal(run.status, 128 + os.constants.signals.SIGXCPU, run.stderr);
  assert.match(run.stderr, /used its 1000 ms of CPU time/);
});

test('a supervisor killed by a signal gives 128 plus the signal', () => {
  const run = runWatchdog("process.kill(process.pid, 'SIGKILL');\n", ['60000', '600000']);
  assert.equal(run.status, 128 + os.constants.signals.SIGKILL);
});

test('a command line without a deadline and a CPU budget is refused', () => {
  for (const args of [[], ['100'], ['0', '100'], ['100', '1.5'], ['100', 'visible'], ['100', '100', 'other'], ['100', '100', 'visible', 'hidden']]) {
    const run = runWatchdog('process.exit(0);\n', args);
    assert.equal(run.status, 2, `args ${JSON.stringify(args)}`);
    assert.match(run.stderr, /usage/);
  }
});
