// The worker processes of one hidden run, one per simulated worker name.
//
// A process serves many schedules and scenarios: each schedule runs in a brand-new
// realm inside it, and nothing the learner's code can reach outlives the realm
// (see worker/realm.mjs), so keeping a process warm changes no result. Node.js 20
// never frees a realm that has loaded ES modules (about half a megabyte per
// schedule), so a process is replaced once it holds half its share of the
// container's memory (read every few schedules), or after a number of
// schedules; a replacement is indistinguishable from a warm process.
//
// Spares are processes started before the run's payload arrived (startSpares):
// booted, but with no name, no repository read and no learner code run, so
// taking one is the same as starting a process, only without the wait.

import { WorkerLink, WorkerFailure } from './worker-link.mjs';

/** Schedules one process serves at most before it is replaced. */
const SCHEDULES_PER_PROCESS = 200;

/**
 * Starts `count` worker processes ahead of the run, for a WorkerPool to take.
 * @param {number} count
 * @param {import('./worker-link.mjs').WorkerOptions} options only repoDir, sandbox, heapMb and hostPath are used
 * @returns {WorkerLink[]}
 */
export function startSpares(count, options) {
  return Array.from({ length: count }, () => WorkerLink.spawn(options));
}

/** Live worker processes by name, with the run's output budget. */
export class WorkerPool {
  #options;
  #spares;
  #links = new Map();
  #served = new Map();
  #bloated = new Set();
  #outputBytes = 0;

  /**
   * @param {import('./worker-link.mjs').WorkerOptions} options
   * @param {WorkerLink[]} [spares] processes started ahead with the same options (startSpares); the pool owns them
   */
  constructor(options, spares = []) {
    this.#options = options;
    this.#spares = [...spares];
  }

  /** Makes sure every named worker has a live process for the next schedule. */
  async prepare(names) {
    const starting = [];
    for (const name of names) {
      const served = this.#served.get(name) ?? 0;
      if (this.#links.has(name) && served < SCHEDULES_PER_PROCESS && !this.#bloated.has(name)) {
        this.#served.set(name, served + 1);
        continue;
      }
      this.#links.get(name)?.kill();
      this.#links.delete(name);
      this.#bloated.delete(name);
      this.#served.set(name, 1);
      starting.push(this.#startLink(name).then((link) => { this.#links.set(name, link); }));
    }
    await Promise.all(starting);
  }

  /** A process for a worker: a spare when one is left and started well, else a new one. */
  async #startLink(name) {
    const spare = this.#spares.shift();
    if (spare) {
      try {
        return await spare.assign(name, this.#options.memoryShareBytes);
      } catch {
        // It never ran learner code: a spare that failed to boot is replaced like any process.
      }
    }
    return WorkerLink.start(name, this.#options);
  }

  /**
   * Sends a command to a worker and returns its answer with the sequence number it must carry.
   * @throws {WorkerFailure} when the worker fails, or the run's output passes its limit
   */
  async command(worker, message, timeoutMs) {
    const link = this.#links.get(worker);
    if (!link) throw new WorkerFailure('error', `worker ${worker} is not running`);
    try {
      // Every reset restates how much the worker's code may print: a spare started before the payload could not know.
      const sent = message.t === 'reset' ? { ...message, outputLimit: this.#options.outputLimitBytes } : message;
      const answer = await link.command(sent, timeoutMs);
      const { output, rss } = answer.message ?? {};
      if (Number.isSafeInteger(output?.bytes)) this.#outputBytes += output.bytes;
      if (this.#outputBytes > this.#options.outputLimitBytes) {
        throw new WorkerFailure('output-limit', `the workers printed more than ${this.#options.outputLimitBytes} bytes`);
      }
      if (typeof rss === 'number' && rss > this.#options.memoryShareBytes / 2) this.#bloated.add(worker);
      return answer;
    } catch (error) {
      // A failed process is never reused: the next schedule gets a fresh one.
      this.discard(worker, link);
      throw error;
    }
  }

  /**
   * Stops a worker's process for good (it misbehaved); the next schedule starts a fresh one.
   * @param {string} worker
   * @param {import('./worker-link.mjs').WorkerLink} [link] only this process, if it is still the worker's
   */
  discard(worker, link = this.#links.get(worker)) {
    link?.kill();
    if (this.#links.get(worker) === link) this.#links.delete(worker);
  }

  /** Stops every process, spares included. */
  close() {
    for (const link of [...this.#links.values(), ...this.#spares]) link.kill();
    this.#links.clear();
    this.#spares = [];
  }
}
