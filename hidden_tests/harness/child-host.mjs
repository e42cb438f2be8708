// Keeps a child process for a scenario's schedules, and replaces it now and then.
//
// Node.js never frees vm modules, and every schedule loads fresh module graphs, so
// a child's memory grows with each schedule. A schedule starts from nothing in any
// child, so swapping the child every so many schedules changes no result and keeps
// memory flat however many schedules a scenario has.

import { ChildLink } from './child-link.mjs';

/** Schedules one child process serves before it is replaced. */
const SCHEDULES_PER_CHILD = 300;

/** The child processes of one scenario, one at a time. */
export class ChildHost {
  #options;
  #link = null;
  #served = 0;

  /** @param {{ repoDir: string, outputLimitBytes: number, sandbox: boolean, timeoutMs: number }} options */
  constructor(options) {
    this.#options = options;
  }

  /** The child to run the next schedule in, started or replaced as needed. */
  async forSchedule() {
    if (!this.#link || this.#served >= SCHEDULES_PER_CHILD) {
      this.#link?.kill();
      this.#link = null;
      this.#link = await ChildLink.start(this.#options);
      this.#served = 0;
    }
    this.#served += 1;
    return this.#link;
  }

  /** The learner's latest output in the current child, for an error report. */
  output() {
    return this.#link?.output.text ?? '';
  }

  /** Stops the current child. */
  close() {
    this.#link?.kill();
    this.#link = null;
  }
}
