// Exit statuses a worker process uses to tell the supervisor why it ended.
// Learner code cannot end the process itself (its process.exit() is virtual),
// so these statuses come only from the worker's host code.

/** The worker printed more than the run's output limit. */
export const OUTPUT_LIMIT_EXIT = 86;

/** The worker's host code failed: a harness defect, never a verdict on the learner. */
export const INTERNAL_ERROR_EXIT = 70;
