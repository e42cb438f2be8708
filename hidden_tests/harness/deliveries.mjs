// What the world keeps about the queue's deliveries: each one's record, how
// many calls and timers each attempt made, whether a worker may be handed a
// second delivery while another of its own is still running, and when a
// delivery that waits for another may arrive.

/**
 * The world's record of a scenario's delivery `d`, the index-th: its state
 * (blocked until the one it comes after ends, floating while it may arrive
 * during another, else waiting for its time), its attempts so far, and, for a
 * caller with a time limit (caller.mjs), the attempts not answered yet with
 * when each started, how many the caller stopped waiting for, and whether it
 * stopped waiting for the last one.
 */
export function deliveryRecord(d, index) {
  return {
    ...d, index, attempt: 0, state: d.after !== undefined ? 'blocked' : d.during !== undefined ? 'floating' : 'waiting',
    due: d.at ?? 0, outcome: undefined, acked: false,
    open: new Map(), noAnswers: 0, unanswered: false,
  };
}

/** Calls and timers per delivery attempt, for the per-delivery call bound and the busiest attempt. */
export class DeliveryCounts {
  #counts = new Map();

  /**
   * Counts one call or timer of a delivery attempt.
   * @param {{ index: number, attempt: number }} delivery
   * @param {'calls' | 'timers'} what
   * @returns {{ calls: number, timers: number }} the attempt's counts so far
   */
  add(delivery, what) {
    const key = `${delivery.index}:${delivery.attempt}`;
    const counts = this.#counts.get(key) ?? { calls: 0, timers: 0 };
    counts[what] += 1;
    this.#counts.set(key, counts);
    return counts;
  }

  /** The most calls and the most timers one attempt made. */
  busiest() {
    let calls = 0;
    let timers = 0;
    for (const counts of this.#counts.values()) {
      calls = Math.max(calls, counts.calls);
      timers = Math.max(timers, counts.timers);
    }
    return { calls, timers };
  }
}

/**
 * Whether some worker may be handed a delivery while another of its deliveries
 * is still running: two of its deliveries of which neither waits for the other
 * (`after`). Redeliveries wait for the attempt before them.
 * @param {Array<{ worker: string, after?: number }>} deliveries a scenario's deliveries
 */
export function mayOverlap(deliveries) {
  const waitsFor = (i, j) => {
    for (let k = deliveries[i].after; k !== undefined; k = deliveries[k].after) if (k === j) return true;
    return false;
  };
  return deliveries.some((a, i) => deliveries.some((b, j) => j > i && a.worker === b.worker && !waitsFor(i, j) && !waitsFor(j, i)));
}

/**
 * Whether some worker is handed two deliveries together: one `during` the
 * other, or both at set moments (`at`) no more than `withinMs` apart, so that
 * the first one's call may still be in flight when the second arrives. Unlike
 * mayOverlap, deliveries that merely do not wait for each other (one at 0, the
 * other a minute later) do not count.
 * @param {Array<{ worker: string, at?: number, during?: number }>} deliveries a scenario's deliveries
 * @param {number} withinMs how far apart two arrivals may be and still count as together
 */
export function arriveTogether(deliveries, withinMs) {
  const together = (a, i, b, j) => a.during === j || b.during === i
    || (a.at !== undefined && b.at !== undefined && Math.abs(a.at - b.at) <= withinMs);
  return deliveries.some((a, i) => deliveries.some((b, j) => j > i && a.worker === b.worker && together(a, i, b, j)));
}

/**
 * Lets the deliveries that come `after` delivery `d` arrive, their delayMs
 * from now: d has ended, answered or with its worker's death.
 * @param {{ deliveries: Array<{ index: number, after?: number, state: string, delayMs?: number, due?: number }>, now: number }} world
 * @param {{ index: number }} d
 */
export function startFollowers(world, d) {
  for (const next of world.deliveries) {
    if (next.after === d.index && next.state === 'blocked') {
      next.state = 'waiting';
      next.due = world.now + (next.delayMs ?? 0);
    }
  }
}

/**
 * Whether the delivery a floating one arrives during has ended (answered, or
 * its worker died): then it arrives at once.
 * @param {{ deliveries: object[], crashed: Map<string, unknown> }} world
 * @param {{ during: number }} d
 */
export function floatEnded(world, d) {
  const target = world.deliveries[d.during];
  return target.attempt > 0 && (target.state === 'done' || world.crashed.has(target.worker));
}

/** Floating deliveries that may arrive now: the one they arrive during has started and not ended. */
export function floatingChoices(world) {
  return world.deliveries
    .filter((d) => d.state === 'floating' && world.deliveries[d.during].attempt > 0 && !floatEnded(world, d))
    .map((d) => ({ id: `deliver:${d.index}:1`, kind: 'deliver', delivery: d, due: world.now }));
}
