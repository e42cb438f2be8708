// The worker processes of one hidden run, one per simulated worker name.
//
// A process serves many schedules and scenarios: each schedule runs in a brand-new
// realm inside it, and nothing the learner's code can reach outlives the realm
// (see worker/realm.mjs), so keeping a process warm changes no result. Node.js 20
// never frees a realm that has loaded ES modules (about half a megabyte per
// schedule), so a process is replaced once it holds half its share of the
// container's memory (read every few schedules), or after a number of
// schedules; a replacement is indistinguishable from a warm process.

import { WorkerLink, WorkerFailure } from './worker-link.mjs';

/** Schedules one process serves at most before it is replaced. */
const SCHEDULES_PER_PROCESS = 200;

/** Live worker processes by name, with the run's output budget. */
export class WorkerPool {
  #options;
  #links = new Map();
  #served = new Map();
  #bloated = new Set();
  #outputBytes = 0;

  /** @param {import('./worker-link.mjs').WorkerOptions} options */
  constructor(options) {
    this.#options = options;
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
      starting.push(WorkerLink.start(name, this.#options).then((link) => { this.#links.set(name, link); }));
    }
    await Promise.all(starting);
  }

  /**
   * Sends a command to a worker and returns its answer with the sequence number it must carry.
   * @throws {WorkerFailure} when the worker fails, or the run's output passes its limit
   */
  async command(worker, message, timeoutMs) {
    const link = this.#links.get(worker);
    if (!link) throw new WorkerFailure('error', `worker ${worker} is not running`);
    try {
      const answer = await link.command(message, timeoutMs);
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

  /** Stops every process. */
  close() {
    for (const link of this.#links.values()) link.kill();
    this.#links.clear();
  }
}
