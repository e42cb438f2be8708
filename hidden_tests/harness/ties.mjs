// Ties: moments where one worker's timer falls due at the very instant another
// of its own events does (a second timer, or the answer to one of its calls).
// Two timers due together are tried in both orders: nothing in the fault model
// orders them, and real clocks drift. A call whose quickest answer falls due
// at the instant of a timer of its worker answers after the timer: that order
// stands for an answer a hair slower than the quickest, which the latency
// range allows, while the other would need one quicker than it, which it does
// not (an answer due at the slowest the range allows, or a call whose latency
// does not vary, still ties). Every tie in a schedule doubles the orders after
// it. A timer whose period lines up with another's, or with calls whose answer
// can only come at one instant, makes ties at every beat; a learner whose
// exploration did not finish is told so, with the first one as an example.

/**
 * Which ready calls wait for a timer of their worker due now: a call whose
 * quickest answer is due at this very instant, when its latency varies (see
 * above). They are answerable again once the timer has fired.
 * @param {{ now: number, timers: Map<string, { worker: string, due: number }>, awake: (worker: string) => boolean }} world
 * @returns {(op: { worker: string, readyAt: number, deadline: number }) => boolean}
 */
export function answersAfterTimers(world) {
  const timing = new Set();
  for (const timer of world.timers.values()) if (timer.due === world.now && world.awake(timer.worker)) timing.add(timer.worker);
  return (op) => timing.has(op.worker) && op.readyAt === world.now && op.readyAt < op.deadline;
}

/**
 * The tie the world offers at this step, if any: a timer due exactly now (not
 * one a pause held back) beside another timer or an answer of the same worker
 * due exactly now.
 * @param {{ now: number, timers: Map<string, { worker: string, due: number, delay: number }> }} world
 * @param {Array<{ kind: string, worker?: string, timerId?: string, op?: { worker: string, target: string, name: string, readyAt: number } }>} choices
 * @returns {{ timer: string, text: string } | null} the tie: its timer's id, and the tie described for the learner
 */
export function tieOf(world, choices) {
  const due = new Map();
  for (const choice of choices) {
    const timer = choice.kind === 'timer' ? world.timers.get(choice.timerId) : undefined;
    if (timer?.due === world.now) due.set(choice, timer);
  }
  for (const [choice, timer] of due) {
    const other = choices.find((c) => c !== choice && ((due.has(c) && c.worker === timer.worker)
      || (c.kind === 'op' && c.op.worker === timer.worker && c.op.readyAt === world.now)));
    if (!other) continue;
    const what = due.has(other) ? `its ${due.get(other).delay} ms timer` : `the answer to its ${other.op.target}.${other.op.name}()`;
    return { timer: choice.timerId, text: `at ${world.now} ms, ${timer.worker}'s ${timer.delay} ms timer and ${what}` };
  }
  return null;
}

/** No ties yet: the record a run, and an exploration, start from. */
export function noTies() {
  return { most: 0, example: null };
}

/**
 * The sentence an unfinished exploration adds about ties, or '' when its
 * schedules had none.
 * @param {{ most: number, example: string | null }} ties the most ties one schedule had, and its first
 */
export function tiesSentence(ties) {
  if (!ties || ties.most === 0) return '';
  const times = ties.most === 1 ? 'once' : `${ties.most} times`;
  return ` In one schedule, ${times} a timer fell due at the same moment as another event of its worker (first ${ties.example}),`
    + ' and each such tie is tried in both orders: timer periods that line up with each other, with call latencies or with'
    + ' a lease do this, and ones that do not line up need far fewer orders.';
}
