// The trace of one schedule: every step in the order it happened, as the
// learner reads it. A step says who did what to which key and what came of it,
// and, where it applies, which service was called, for which request, from
// which line of the learner's code, since when the call was in flight, and
// the whole value when the short result had to cut it.

import { show } from './describe.mjs';

/** Characters of a value kept in a step's `detail`. */
const DETAIL_CHARS = 2000;

/** The steps of one schedule. */
export class Trace {
  /** @type {object[]} */
  steps = [];

  /**
   * Appends a step at virtual time `at` and returns it.
   * @param {number} at
   * @param {{ worker: string, operation: string, key: string, result: string, service?: string,
   *   request?: string, site?: string, issued?: number, value?: unknown }} fields value, when the
   *   result shows it cut short, is kept whole (up to a limit) in the step's detail
   */
  add(at, { worker, operation, key, result, service, request, site, issued, value }) {
    const step = { step: this.steps.length + 1, at, worker, operation, key, result };
    if (service) step.service = service;
    if (request) step.request = request;
    if (site) step.site = site;
    if (issued !== undefined && issued < at) step.issued = issued;
    if (value !== undefined && show(value).endsWith('…')) {
      const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
      step.detail = text.length <= DETAIL_CHARS ? text : `${text.slice(0, DETAIL_CHARS - 1)}…`;
    }
    this.steps.push(step);
    return step;
  }

  /** The steps with those in `highlight` (step numbers) marked. */
  highlighted(highlight) {
    return this.steps.map((s) => (highlight.has(s.step) ? { ...s, highlight: true } : { ...s }));
  }
}

/** How a trace names a delivery: "job-7 #2" for the second delivery of job-7, to whichever worker. */
export function requestLabel(delivery) {
  return delivery ? `${delivery.job} #${delivery.messageAttempt ?? delivery.attempt}` : '';
}
