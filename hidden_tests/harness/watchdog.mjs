// The container's first process: `node watchdog.mjs <deadline-ms> <cpu-ms> [hidden|visible]`.
//
// It starts the supervisor (`node supervisor.mjs [hidden|visible]`, next to this
// file; the suite the container is for, when given, tells it what to boot ahead) as
// its only child at once, so that it boots while the container waits for its run, handing it
// the container's stdin, stdout and stderr untouched and a pipe as its fd 3. The run
// begins when the supervisor announces on that pipe that the payload's first bytes
// arrived: then, and only then, the watchdog prints the start marker (one line on
// stderr with the container's CPU time so far, which counts against nothing), starts
// the budgets, and answers, and only then does the supervisor read on. It ends the
// container when the supervisor exits, when the wall-clock deadline passes, when the
// container's processes together have used <cpu-ms> of CPU time since the run began
// (as the kernel's cgroup accounts it) or when they sit idle (idle.mjs), whichever
// comes first. It reads nothing of the
// run and prints nothing but the marker and its own notices on stderr.
//
// In the container it is pid 1: the kernel ignores SIGKILL sent to a namespace's first
// process from inside it, the supervisor's closing kill(-1) passes it by, and when it
// exits the kernel kills every process left in the container. So a run stops at its
// deadline even when no racecase process is alive to stop it. See PROTOCOL.md.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IdleWatch, IDLE_WINDOW_MS, descendantsBusy } from './idle.mjs';

/** The exit code when the deadline ended the run (the code timeout(1) uses). */
const TIMED_OUT = 124;
/** The exit code when the CPU-time budget ended the run: 128 + SIGXCPU, the kernel's own CPU-limit signal. */
const CPU_EXHAUSTED = 128 + os.constants.signals.SIGXCPU;
/** The exit code when the run sat idle: 128 + SIGALRM, the signal of a timer that ran out. */
const IDLE = 128 + os.constants.signals.SIGALRM;
/** How often the container's CPU time and its threads' states are read. */
const CPU_POLL_MS = 250;
/** The exit code for a command line the watchdog cannot use. */
const USAGE = 2;
/** Opens the start marker; the container's CPU time in nanoseconds, or `-`, follows it. */
const STARTED = '\x1eracecase-started';

const supervisor = fileURLToPath(new URL('./supervisor.mjs', import.meta.url));

// SIGUSR1 would open the inspector of this unconfined process to learner code.
process.on('SIGUSR1', () => {});

const args = process.argv.slice(2);
const [deadlineMs, cpuBudgetMs] = args.slice(0, 2).map(Number);
const suite = args.slice(2);
if (args.length < 2 || ![deadlineMs, cpuBudgetMs].every((ms) => Number.isSafeInteger(ms) && ms > 0)
  || suite.length > 1 || !suite.every((s) => s === 'hidden' || s === 'visible')) {
  process.stderr.write('usage: node watchdog.mjs <deadline-ms> <cpu-ms> [hidden|visible]\n');
  process.exit(USAGE);
}

const child = spawn(process.execPath, [supervisor, ...suite], { stdio: ['inherit', 'inherit', 'inherit', 'pipe'] });
let exitCode = null;

/**
 * Ends the run with code (the first code given wins). As pid 1 it kills everything
 * else and exits; elsewhere (in tests) it kills the supervisor and exits once the
 * supervisor is gone.
 */
function stop(code) {
  exitCode ??= code;
  if (process.pid === 1) {
    try { process.kill(-1, 'SIGKILL'); } catch { /* nothing left to kill */ }
  } else if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    return; // the exit listener calls stop again
  }
  process.exit(exitCode);
}


/**
 * How to read the CPU time of this process's cgroup: its file and how to turn
 * the file into milliseconds (cgroup v2's cpu.stat, else v1's cpuacct.usage), or
 * undefined when there is neither. In a container the cgroup's own directory is
 * mounted at the root of the hierarchy while /proc/self/cgroup may name the
 * host's path; on a host that path leads to it.
 */
function cpuSource() {
  let cgroups = '';
  try {
    cgroups = fs.readFileSync('/proc/self/cgroup', 'utf8');
  } catch { /* no /proc */ }
  const v1 = cgroups.match(/^\d+:[^:]*\bcpuacct\b[^:]*:(\/.*)$/m)?.[1];
  const v2 = cgroups.match(/^0::(\/.*)$/m)?.[1];
  const sources = [
    ...(v1 ? [path.join('/sys/fs/cgroup/cpuacct', v1), '/sys/fs/cgroup/cpuacct']
      .map((dir) => ({ file: path.join(dir, 'cpuacct.usage'), ms: (text) => Number(text) / 1e6 })) : []),
    ...[v2 && path.join('/sys/fs/cgroup', v2), '/sys/fs/cgroup'].filter(Boolean)
      .map((dir) => ({ file: path.join(dir, 'cpu.stat'), ms: (text) => Number(text.match(/^usage_usec (\d+)$/m)?.[1]) / 1000 })),
  ];
  return sources.find((source) => Number.isFinite(readCpuMs(source)));
}

/** The CPU time the source reports in milliseconds, or NaN. */
function readCpuMs(source) {
  try {
    return source.ms(fs.readFileSync(source.file, 'utf8'));
  } catch {
    return NaN;
  }
}

const cpu = cpuSource();
let deadline;
let cpuWatch;

/**
 * Begins the run, once: prints the start marker with the CPU time the container used
 * before it (booting, waiting), which counts against nothing, then starts the
 * wall-clock deadline, the CPU budget and the idle watch (a warm container waits idle
 * by design). The marker is written synchronously before the supervisor gets its
 * answer, so it is on stderr before any learner code runs.
 */
function begin() {
  if (deadline) return;
  const cpuAtStart = cpu && readCpuMs(cpu);
  fs.writeSync(2, `${STARTED} ${Number.isFinite(cpuAtStart) ? Math.round(cpuAtStart * 1e6) : '-'}\n`);
  deadline = setTimeout(() => {
    process.stderr.write(`\nracecase watchdog: the run passed its deadline of ${deadlineMs} ms and was stopped\n`);
    stop(TIMED_OUT);
  }, deadlineMs);
  // CPU time, unlike the wall clock, does not grow when the machine is busy. Where no
  // cgroup tells it, the wall-clock deadline and the runner's own CPU watch remain, and
  // idleness is judged by the threads' states alone.
  const idle = new IdleWatch({ pollMs: CPU_POLL_MS });
  cpuWatch = setInterval(() => {
    const used = cpu ? readCpuMs(cpu) - cpuAtStart : NaN;
    if (used >= cpuBudgetMs) {
      process.stderr.write(`\nracecase watchdog: the run used its ${cpuBudgetMs} ms of CPU time and was stopped\n`);
      stop(CPU_EXHAUSTED);
      return;
    }
    idle.add({ at: performance.now(), cpuMs: used, busy: descendantsBusy(process.pid) });
    if (idle.idle()) {
      process.stderr.write(`\nracecase watchdog: the run sat idle for ${IDLE_WINDOW_MS} ms and was stopped\n`);
      stop(IDLE);
    }
  }, CPU_POLL_MS);
}

// The supervisor announces the payload's arrival on its fd 3 and waits for the answer,
// so the marker is out and the budgets run before it reads on. Anything after the
// first announcement is ignored; a supervisor that closes fd 3 without announcing
// begins the run too.
const announcements = child.stdio[3];
announcements.on('data', () => {
  if (deadline) return;
  begin();
  announcements.write('!');
});
announcements.on('end', begin);
announcements.on('error', () => {});

child.on('error', (error) => {
  clearTimeout(deadline);
  process.stderr.write(`racecase watchdog: the supervisor could not start: ${error.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  clearTimeout(deadline);
  clearInterval(cpuWatch);
  stop(code ?? 128 + (os.constants.signals[signal] ?? 0));
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => stop(128 + os.constants.signals[signal]));
}
