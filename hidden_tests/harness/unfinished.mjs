// What a learner reads when the exploration of a scenario did not finish, or a
// failing test cut some schedules short: that the test is therefore not proven,
// why, and what in their code makes the search large.

import { tiesSentence } from './ties.mjs';

/**
 * @param {import('./explorer.mjs').Exploration} outcome
 * @param {{ maxSchedules: number, maxSchedulesAfterFailure: number, maxSteps: number, maxWork: number }} limits
 * @param {string} [failedTest] the scenario's first failing test, when one failed
 */
export function unfinishedMessage(outcome, limits, failedTest) {
  if (outcome.cutShort > 0 && !outcome.unfinished) {
    const some = outcome.cutShort === 1 ? '1 schedule' : `${outcome.cutShort} schedules`;
    return `not decided: "${failedTest}" failed in a way that ended ${some} early, so this test was not judged on `
      + `${outcome.cutShort === 1 ? 'it' : 'them'} (it held in the other ${outcome.schedules - outcome.cutShort}); fix that test first`;
  }
  if (outcome.unfinished === 'after-failure') {
    return `not decided: the exploration stopped ${limits.maxSchedulesAfterFailure} schedules after `
      + `"${failedTest}" failed (it held in the ${outcome.schedules} schedules explored); fix that test first`;
  }
  if (outcome.unfinished === 'work' && failedTest) {
    return `not decided: the exploration used its work budget (${outcome.work} of ${limits.maxWork} steps, restarts included) `
      + `after "${failedTest}" failed (it held in the ${outcome.schedules} schedules explored); fix that test first`;
  }
  const { calls, timers } = outcome.busiest;
  const load = `one delivery of your code made up to ${calls} store and service call${calls === 1 ? '' : 's'}`
    + ` and set up to ${timers} timer${timers === 1 ? '' : 's'}, and each one multiplies the orders to check`;
  if (outcome.unfinished === 'steps') {
    return `the exploration did not finish, so this test is not proven: one schedule ran for more than ${limits.maxSteps} steps `
      + `without every delivery ending (${load}). Look for a retry or polling loop that never gives up, or calls that could be one.${tiesSentence(outcome.ties)}`;
  }
  if (outcome.unfinished === 'work') {
    return `the exploration did not finish, so this test is not proven: it ran ${outcome.work} steps, its work budget of `
      + `${limits.maxWork} (restarts included), in ${outcome.schedules} schedules without covering every order (${load}). `
      + `${lookFor(timers)}${tiesSentence(outcome.ties)}`;
  }
  return `the exploration did not finish, so this test is not proven: it explored ${outcome.schedules} schedules, its budget, `
    + `without covering every order (${load}). ${lookFor(timers)}${tiesSentence(outcome.ties)}`;
}

/**
 * Where to look when a search ran out of budget: loops that wait are only
 * suspects when the code set timers; without any, every call is an order to check.
 * @param {number} timers the most timers one delivery set
 */
function lookFor(timers) {
  if (timers === 0) return 'No timer was set, so the orders come from the calls themselves: look for calls that could be one, or that need not be made at all.';
  return 'Look for polling or retry loops that make every schedule long, or calls that could be one.';
}
