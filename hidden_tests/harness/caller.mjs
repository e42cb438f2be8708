// The caller's patience: how long it waits for an attempt's answer, and what
// it does when none comes in time.
//
// A scenario's `redeliver` may give the caller a time limit (`answerWithinMs`):
// an attempt not answered within it is one the caller stopped waiting for. The
// caller then retries after the next of `afterNoAnswerMs` (one wait per retry
// it makes after an unanswered attempt; once they are used up it makes no
// more), while the attempt it left goes on running on its worker: its calls
// still land, and its answer, when it comes, is not the caller's (it neither
// acknowledges the delivery nor counts as its outcome). An answer at the limit
// itself is in time; a retry "at once" comes 1 ms after the limit, once the
// caller has seen it pass. Such a scenario's workers have each attempt's calls
// attributed to that attempt, since one attempt can run beside the next on the
// same worker.

import { requestLabel } from './trace.mjs';
import { startFollowers } from './deliveries.mjs';

/** Whether a scenario's caller stops waiting for answers (redeliver.answerWithinMs). */
export function callerHasLimit(scenario) {
  return scenario.redeliver?.answerWithinMs !== undefined;
}

/**
 * What a worker's calls of one attempt are attributed to: the delivery itself,
 * or, where the caller has a time limit, a view of it for this attempt alone
 * (its number and label; everything else is the delivery's).
 * @param {object} d the delivery, just started on its attempt d.attempt
 * @param {boolean} perAttempt
 */
export function attemptRequest(d, perAttempt) {
  if (!perAttempt) return d;
  return Object.create(d, { attempt: { value: d.attempt }, messageAttempt: { value: d.messageAttempt } });
}

/** The moment after which the caller no longer waits for attempt `attempt` of `d` (Infinity: it waits for ever). */
export function answerLimit(world, d, attempt) {
  const within = world.scenario.redeliver?.answerWithinMs;
  const started = d.open.get(attempt);
  return within === undefined || started === undefined ? Infinity : started + within;
}

/**
 * When the caller retries after attempt `attempt` of `d` went unanswered, or
 * null when it retries no more (its waits, or the delivery's attempts, are
 * used up).
 */
export function retryAfterNoAnswer(world, d, attempt) {
  const { afterNoAnswerMs = [], maxAttempts } = world.scenario.redeliver ?? {};
  const limit = answerLimit(world, d, attempt);
  if (limit === Infinity || d.noAnswers >= afterNoAnswerMs.length || d.attempt >= (d.maxAttempts ?? maxAttempts)) return null;
  return limit + Math.max(1, afterNoAnswerMs[d.noAnswers]);
}

/**
 * The retries on offer for deliveries whose current attempt is still running:
 * the caller stops waiting for it and sends the next one, due when
 * retryAfterNoAnswer says.
 */
export function retryChoices(world) {
  return world.deliveries.filter((d) => d.state === 'running' && !world.crashed.has(d.worker))
    .map((d) => ({ d, due: retryAfterNoAnswer(world, d, d.attempt) }))
    .filter(({ due }) => due !== null)
    .map(({ d, due }) => ({ id: `deliver:${d.index}:${d.attempt + 1}`, kind: 'deliver', delivery: d, due }));
}

/** Records that the caller stopped waiting for d's current attempt: the next one is a retry after no answer. */
export function noAnswer(world, d) {
  d.noAnswers += 1;
  d.unanswered = true;
  d.outcome = `no answer within ${world.scenario.redeliver.answerWithinMs} ms`;
  d.acked = false;
}

/**
 * Applies an answer that came after the caller stopped waiting for its
 * attempt: a step in the trace, and, when it is the delivery's current
 * attempt, the caller's retry (or the delivery's end when it has none left,
 * which lets the deliveries that come after it arrive).
 * @returns {boolean} whether the answer was late (and so has been dealt with)
 */
export function lateAnswer(world, d, request, result) {
  const limit = answerLimit(world, d, request.attempt);
  if (world.now <= limit) return false;
  const within = world.scenario.redeliver.answerWithinMs;
  world.step(d.worker, 'handle', d.job, `${result}, after the caller stopped waiting (no answer within ${within} ms)`,
    { request: requestLabel(request) });
  if (request.attempt !== d.attempt) return true;
  const due = retryAfterNoAnswer(world, d, request.attempt);
  noAnswer(world, d);
  if (due === null) {
    d.state = 'done';
    startFollowers(world, d);
  } else {
    d.state = 'waiting';
    d.due = due;
  }
  return true;
}
