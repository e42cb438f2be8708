// The container's first process: `node watchdog.mjs <deadline-ms> <suite>`.
//
// It starts the supervisor (`node supervisor.mjs <suite>`, next to this file) as its
// only child, handing it the container's stdin, stdout and stderr untouched, and ends
// the container when the supervisor exits or when the deadline passes, whichever comes
// first. It reads nothing and prints nothing but its own one-line notice on stderr.
//
// In the container it is pid 1: the kernel ignores SIGKILL sent to a namespace's first
// process from inside it, the supervisor's closing kill(-1) passes it by, and when it
// exits the kernel kills every process left in the container. So a run stops at its
// deadline even when no racecase process is alive to stop it. See PROTOCOL.md.

import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/** The exit code when the deadline ended the run (the code timeout(1) uses). */
const TIMED_OUT = 124;
/** The exit code for a command line the watchdog cannot use. */
const USAGE = 2;

const supervisor = fileURLToPath(new URL('./supervisor.mjs', import.meta.url));

// SIGUSR1 would open the inspector of this unconfined process to learner code.
process.on('SIGUSR1', () => {});

const [deadlineArg, suite] = process.argv.slice(2);
const deadlineMs = Number(deadlineArg);
if (!Number.isSafeInteger(deadlineMs) || deadlineMs <= 0 || !suite) {
  process.stderr.write('usage: node watchdog.mjs <deadline-ms> <visible|hidden>\n');
  process.exit(USAGE);
}

const child = spawn(process.execPath, [supervisor, suite], { stdio: 'inherit' });
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

const deadline = setTimeout(() => {
  process.stderr.write(`\nracecase watchdog: the run passed its deadline of ${deadlineMs} ms and was stopped\n`);
  stop(TIMED_OUT);
}, deadlineMs);

child.on('error', (error) => {
  clearTimeout(deadline);
  process.stderr.write(`racecase watchdog: the supervisor could not start: ${error.message}\n`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  clearTimeout(deadline);
  stop(code ?? 128 + (os.constants.signals[signal] ?? 0));
});
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  process.on(signal, () => stop(128 + os.constants.signals[signal]));
}
