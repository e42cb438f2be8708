// The supervisor's end of one worker process.
//
// Each simulated worker is an OS process of its own (worker/host.mjs), as in
// production: it shares nothing with the other workers or with the supervisor
// but the socket on which it receives commands and reports events. A worker
// that does not answer in time, dies, floods its output or says anything
// malformed is reported as such; it is never trusted with a verdict.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';
import { FrameReader, FrameError, encodeFrame } from './frames.mjs';
import { OUTPUT_LIMIT_EXIT } from './worker/exit-status.mjs';
import { oomKills } from './memory-facts.mjs';
import { CpuClock } from './cpu-clock.mjs';

const hostPath = fileURLToPath(new URL('./worker/host.mjs', import.meta.url));
const harnessDir = fileURLToPath(new URL('.', import.meta.url)).replace(/\/$/, '');
/** Starting Node.js is not the learner's code: it gets a generous allowance of CPU time. */
const STARTUP_MS = 10_000;
/**
 * How much longer than its CPU-time allowance a step may take on the wall clock
 * before it is stopped anyway: code that waits without computing (a blocked
 * Atomics.wait) uses no CPU. The factor keeps a busy machine, which slows the
 * wall clock but not CPU time, from ever deciding a verdict.
 */
const WALL_BACKSTOP_FACTOR = 10;
/** The largest message a worker may send (its events of one step). */
const MESSAGE_LIMIT_BYTES = 4 << 20;
const STDERR_TAIL_CHARS = 4000;
/** How often a busy worker's resident memory and CPU time are read while the supervisor waits for it. */
const POLL_MS = 50;

/** Raised when a worker stops answering, dies, floods its output or breaks the protocol. */
export class WorkerFailure extends Error {
  /**
   * @param {'timeout'|'memory'|'output-limit'|'error'} kind the first three end the run with
   *   that verdict; 'error' fails the tests of the scenario it happened in
   * @param {string} message for the learner
   */
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

/** Options every worker process of a run shares. */
export class WorkerOptions {
  /**
   * @param {{ repoDir: string, sandbox: boolean, outputLimitBytes: number, heapMb: number, memoryShareBytes: number,
   *   hostPath?: string }} options memoryShareBytes is the resident memory a worker may use, its share of
   *   the container; hostPath replaces worker/host.mjs (harness tests use it to play a hostile worker)
   */
  constructor({ repoDir, sandbox, outputLimitBytes, heapMb, memoryShareBytes, hostPath: host = hostPath }) {
    this.repoDir = repoDir;
    this.sandbox = sandbox;
    this.outputLimitBytes = outputLimitBytes;
    this.heapMb = heapMb;
    this.memoryShareBytes = memoryShareBytes;
    this.hostPath = host;
  }
}

/**
 * One worker process. It is spawned before it knows which simulated worker it
 * will play (a spare, booted while the run waits for its payload), then
 * assigned a name; it runs no learner code until its first `reset`.
 */
export class WorkerLink {
  /**
   * Starts a worker process that plays no worker yet; assign() names it.
   * @param {WorkerOptions} options only repoDir, sandbox, heapMb and hostPath are used
   */
  static spawn(options) {
    const link = new WorkerLink(options);
    link.#ready = link.#await(STARTUP_MS).then((message) => message?.t === 'ready', () => false);
    return link;
  }

  /**
   * Starts a worker process and waits until its host is ready.
   * @param {string} worker the simulated worker's name, e.g. "blue"
   * @param {WorkerOptions} options
   */
  static start(worker, options) {
    return WorkerLink.spawn(options).assign(worker, options.memoryShareBytes);
  }

  #worker = 'spare';
  #child;
  #ready;
  #reader = new FrameReader(MESSAGE_LIMIT_BYTES);
  #waiter = null;
  #failure = null;
  #killedByUs = false;
  #stderr = '';
  #oomBefore;
  #seq = 0;
  #memoryShare = Infinity;
  #cpu;

  constructor(options) {
    this.#oomBefore = oomKills();
    const execArgv = [
      '--no-warnings', '--frozen-intrinsics', '--disallow-code-generation-from-strings',
      '--experimental-vm-modules', `--max-old-space-size=${options.heapMb}`, '--v8-pool-size=1',
    ];
    if (options.sandbox) execArgv.push('--experimental-permission', ...readable([options.repoDir, harnessDir, path.dirname(options.hostPath)]));
    this.#child = spawn(process.execPath, [...execArgv, options.hostPath, options.repoDir], {
      cwd: options.repoDir,
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
      env: {},
    });
    raiseOomScore(this.#child.pid);
    this.#cpu = new CpuClock(this.#child.pid);
    this.#child.stderr.on('data', (chunk) => { this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS); });
    const channel = this.#child.stdio[3];
    channel.on('data', (chunk) => this.#receive(chunk));
    channel.on('error', () => {});
    this.#child.on('exit', (code, signal) => this.#exited(code, signal));
    this.#child.on('error', () => this.#fail(new WorkerFailure('error', `worker ${this.#worker} could not be started`)));
  }

  /**
   * Names the process after the simulated worker it plays from now on and waits until it is ready.
   * @param {string} worker the simulated worker's name, e.g. "blue"
   * @param {number} memoryShareBytes the resident memory it may use
   * @returns {Promise<WorkerLink>}
   * @throws {WorkerFailure} when the process did not start
   */
  async assign(worker, memoryShareBytes) {
    this.#worker = worker;
    this.#memoryShare = memoryShareBytes;
    if (!(await this.#ready)) {
      this.kill();
      throw new WorkerFailure('error', `worker ${worker} did not start as expected`);
    }
    return this;
  }

  /** The worker's name. */
  get worker() {
    return this.#worker;
  }

  /**
   * Sends one command and resolves with the worker's raw answer.
   * @param {object} message the command (its seq is set here)
   * @param {number} timeoutMs how long the learner's code may run before it yields
   * @returns {Promise<{ message: object, seq: number }>}
   */
  async command(message, timeoutMs) {
    if (this.#failure) throw this.#failure;
    this.#seq += 1;
    const seq = this.#seq;
    const answer = this.#await(timeoutMs);
    this.#child.stdio[3].write(encodeFrame({ ...message, seq }));
    return { message: await answer, seq };
  }

  /** Stops the process for good. */
  kill() {
    this.#killedByUs = true;
    this.#child.kill('SIGKILL');
  }

  #receive(chunk) {
    let messages;
    try {
      messages = this.#reader.push(chunk);
    } catch (error) {
      const why = error instanceof FrameError ? error.message : 'a malformed message';
      this.#fail(new WorkerFailure('error', `worker ${this.#worker} sent ${why}`));
      this.kill();
      return;
    }
    for (const message of messages) {
      const waiter = this.#waiter;
      if (!waiter) {
        this.#fail(new WorkerFailure('error', `worker ${this.#worker} spoke when it was not asked`));
        this.kill();
        return;
      }
      this.#waiter = null;
      clearTimeout(waiter.timer);
      waiter.resolve(message);
    }
  }

  #exited(code, signal) {
    this.#cpu.close();
    if (this.#failure) return;
    if (this.#killedByUs) {
      this.#fail(new WorkerFailure('error', `worker ${this.#worker} was stopped`));
      return;
    }
    const oomNow = oomKills();
    if (signal === 'SIGKILL' && oomNow !== undefined && this.#oomBefore !== undefined && oomNow > this.#oomBefore) {
      this.#fail(new WorkerFailure('memory', `worker ${this.#worker} ran out of memory and was killed`));
    } else if (signal === 'SIGABRT' && /^FATAL ERROR: .*JavaScript heap out of memory$/m.test(this.#stderr)) {
      this.#fail(new WorkerFailure('memory', `worker ${this.#worker} ran out of memory (its JavaScript heap reached the limit)`));
    } else if (code === OUTPUT_LIMIT_EXIT) {
      this.#fail(new WorkerFailure('output-limit', `worker ${this.#worker} printed more output than a run may`));
    } else {
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      this.#fail(new WorkerFailure('error', `the process of worker ${this.#worker} ${how}`));
    }
  }

  #await(timeoutMs) {
    return new Promise((resolve, reject) => {
      if (this.#failure) {
        reject(this.#failure);
        return;
      }
      const cpuAtStart = this.#cpu.ms();
      const overran = (what) => {
        this.#fail(new WorkerFailure('timeout', `the code of worker ${this.#worker} did not yield within ${what} (an endless loop?)`));
        this.kill();
      };
      // CPU time decides: it does not grow when other processes are busy. The
      // wall clock decides only where CPU time cannot be read, or far past it.
      const wallMs = cpuAtStart === undefined ? timeoutMs : timeoutMs * WALL_BACKSTOP_FACTOR;
      const timer = setTimeout(() => overran(`${wallMs} ms`), wallMs);
      const poll = setInterval(() => {
        this.#checkMemory();
        const used = cpuAtStart === undefined ? undefined : this.#cpu.ms();
        if (used !== undefined && used - cpuAtStart > timeoutMs) overran(`${timeoutMs} ms of CPU time`);
      }, POLL_MS);
      this.#waiter = { resolve: (message) => { clearInterval(poll); resolve(message); }, reject, timer, poll };
    });
  }

  /** A worker past its share of the container's memory has run out of it: the kernel says how much it holds. */
  #checkMemory() {
    const rss = residentBytes(this.#child.pid);
    if (rss === undefined || rss <= this.#memoryShare) return;
    this.#fail(new WorkerFailure('memory', `worker ${this.#worker} ran out of memory: it used more than `
      + `${Math.floor(this.#memoryShare / (1 << 20))} MiB, its share of the run's memory`));
    this.kill();
  }

  #fail(error) {
    if (this.#failure) return;
    this.#failure = error;
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = null;
    clearTimeout(waiter.timer);
    clearInterval(waiter.poll);
    waiter.reject(error);
  }
}

/** A process's resident memory in bytes, from /proc, or undefined when it cannot be read. */
function residentBytes(pid) {
  try {
    const match = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The --allow-fs-read flags for these directories. A directory inside another
 * is left out: Node.js 20 aborts on such overlapping grants.
 */
function readable(dirs) {
  const inside = (dir, other) => dir === other || dir.startsWith(`${other}/`);
  const kept = dirs.filter((dir, i) => !dirs.some((other, j) => j !== i && inside(dir, other) && (dir !== other || j < i)));
  return kept.map((dir) => `--allow-fs-read=${dir}/*`);
}

/**
 * Makes a worker the first process the kernel's out-of-memory killer picks,
 * so that a worker that hoards memory dies rather than the supervisor. Raising
 * the score needs no privilege; where /proc cannot be written, nothing changes.
 */
function raiseOomScore(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/oom_score_adj`, '1000');
  } catch {
    // Not permitted here: the killer then picks by size, which is the hoarding worker anyway.
  }
}
