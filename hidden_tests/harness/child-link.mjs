// The supervisor's end of one child process that hosts learner code.
//
// Commands go out over IPC; each answer is the batch of events the child saw until it
// settled. A child that does not answer in time, dies, or prints too much is reported
// as such; it is never trusted with anything but relaying.

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const relayPath = fileURLToPath(new URL('./child/relay.mjs', import.meta.url));
const childDir = path.dirname(relayPath);
const STARTUP_MS = 10_000;

/** Raised when the child stops answering, exits, or exceeds its output budget. */
export class ChildFailure extends Error {
  /**
   * @param {'timeout'|'exited'|'output-limit'|'memory'} kind
   * @param {string} message
   */
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

/** Keeps the last `limit` characters of a stream and counts every byte. */
class Tail {
  constructor(limit) { this.limit = limit; this.text = ''; this.bytes = 0; }
  push(chunk) {
    this.bytes += chunk.length;
    this.text = (this.text + chunk.toString('utf8')).slice(-this.limit);
  }
  take() { const text = this.text; this.text = ''; return text; }
}

/** A child process running child/relay.mjs against one repository directory. */
export class ChildLink {
  /**
   * Starts a child and waits until its relay is ready.
   * @param {{ repoDir: string, outputLimitBytes: number, sandbox: boolean, timeoutMs: number }} options
   * @returns {Promise<ChildLink>}
   */
  static async start(options) {
    const link = new ChildLink(options);
    // Starting Node.js is not the learner's code: it gets a generous allowance.
    await link.#await(Math.max(options.timeoutMs, STARTUP_MS), 'ready');
    return link;
  }

  #child;
  #waiter = null;
  #exit = null;
  #outputLimit;
  /** Output the learner's code printed, newest last. */
  output = new Tail(2000);

  constructor({ repoDir, outputLimitBytes, sandbox }) {
    this.#outputLimit = outputLimitBytes;
    const execArgv = ['--no-warnings', '--experimental-vm-modules', '--max-old-space-size=192'];
    if (sandbox) {
      execArgv.push('--experimental-permission', `--allow-fs-read=${repoDir}/*`, `--allow-fs-read=${childDir}/*`);
    }
    this.#child = fork(relayPath, [repoDir], {
      cwd: repoDir,
      execArgv,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'test' },
    });
    const onOutput = (chunk) => {
      this.output.push(chunk);
      if (this.output.bytes > this.#outputLimit) {
        this.#fail(new ChildFailure('output-limit', `the code printed more than ${this.#outputLimit} bytes`));
      }
    };
    this.#child.stdout.on('data', onOutput);
    this.#child.stderr.on('data', onOutput);
    this.#child.on('message', (message) => {
      const waiter = this.#waiter;
      if (!waiter || message.t !== waiter.expect) return;
      this.#waiter = null;
      clearTimeout(waiter.timer);
      waiter.resolve(message.events ?? []);
    });
    this.#child.on('exit', (code, signal) => {
      this.#exit = { code, signal };
      if (/heap out of memory|Allocation failed/.test(this.output.text)) {
        this.#fail(new ChildFailure('memory', 'the code ran out of memory'));
        return;
      }
      this.#fail(new ChildFailure('exited', signal
        ? `the worker process was killed by ${signal}`
        : `the worker process exited with code ${code}`));
    });
    this.#child.on('error', () => {});
  }

  /**
   * Sends one command and resolves with the events the child reported once settled.
   * @param {object} message
   * @param {number} timeoutMs
   * @returns {Promise<object[]>}
   */
  command(message, timeoutMs) {
    if (this.#exit) return Promise.reject(new ChildFailure('exited', 'the worker process is gone'));
    const answer = this.#await(timeoutMs, 'idle');
    this.#child.send(message);
    return answer;
  }

  /** Stops the child for good. */
  kill() {
    if (!this.#exit) this.#child.kill('SIGKILL');
  }

  #await(timeoutMs, expect) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#fail(new ChildFailure('timeout', `the code did not yield within ${timeoutMs} ms (an endless loop?)`));
        this.kill();
      }, timeoutMs);
      this.#waiter = { resolve, reject, timer, expect };
    });
  }

  #fail(error) {
    const waiter = this.#waiter;
    if (!waiter) return;
    this.#waiter = null;
    clearTimeout(waiter.timer);
    waiter.reject(error);
  }
}
