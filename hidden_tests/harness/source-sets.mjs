// Source sets (source-DPOR, after Abdulla, Aronis, Jonsson and Sagonas): instead
// of trying every choice the world offers at a step, the explorer tries the first
// one, and this module adds the others only where a run shows that taking one
// of them first would lead somewhere new. After each run it finds the races in
// it: two dependent steps with no third step ordered between them, the later
// one not made possible by the earlier. Reversing such a race is a schedule of
// another kind, so the explorer must try, at the step where the earlier one was
// taken, a choice that can start that reversed schedule (an initial of it)
// unless one already is (or sleeps there, being explored from an equivalent
// state before). Together with the sleep sets this still visits every kind of
// schedule once, and skips the tries that sleep sets alone would run only to
// find every choice asleep.
//
// The world is not the textbook one, and six rules keep the search sound
// where it differs:
// - A choice that moves the clock or freezes a worker depends on everything and
//   its identity names a time that other steps shift; it is tried wherever it is
//   offered, as the sleep sets alone would.
// - A choice can vanish without being taken (an answer that comes on time takes
//   away its late variant): it is tried at the last step it was offered.
// - A run ends while choices are still offered (a heartbeat timer when every
//   delivery is done): those count as taken just after its end, so the races
//   they would have are still reversed.
// - A call can wait without being offered (an acquire while another worker
//   holds the lock): where it starts to wait it counts as taken there, so that
//   its race with the step that took the lock is reversed; taken later, it is
//   made possible by the release, which it cannot overtake.
// - A frozen worker's wake may be taken now or at any later point of its
//   window, and taking it now can hold the clock (its answers that are due
//   must come first), so "later, after the clock moved" is no reordering of
//   the run's steps that a race would reveal: wherever a wake is offered, it is
//   tried, and so is one other choice, after which it sleeps until the clock
//   moves on (deferrable).
// - The clock may move only once nothing holds it (a timer due now, or a call
//   that must be answered before time passes: world.mjs). A move of the clock
//   is therefore made possible by every holder taken since it was last free,
//   not only by the step just before it; without that, each holder would look
//   like a race with the move, and reversing it would only find every choice
//   asleep.

import { independent } from './events.mjs';

/** The id a held clock's next move goes by in the race analysis; the world never offers it. */
const CLOCK = 'clock:held';

/**
 * Whether a choice is always tried where it is offered (the first rule above).
 * @param {{ kind: string }} footprint the choice's footprint (events.mjs)
 */
function alwaysTried(footprint) {
  return footprint.kind === 'time';
}

/**
 * Whether a choice may as well be taken later, once the clock moved on (a
 * frozen worker's wake, the fifth rule above): where it is offered it is tried,
 * and so is one choice that leaves it for later (firstTries).
 * @param {{ deferrable?: boolean }} footprint the choice's footprint (events.mjs)
 */
function deferrable(footprint) {
  return footprint.deferrable === true;
}

/**
 * The choices a new node tries in any case: the first awake one, every awake
 * choice tried wherever it is offered (alwaysTried, deferrable), and beside a
 * deferrable first choice the first awake one that is not.
 * @param {string[]} ids the choices offered, in order
 * @param {Map<string, object>} footprints their footprints
 * @param {Map<string, object>} sleep the choices asleep there
 * @returns {Set<string>}
 */
export function firstTries(ids, footprints, sleep) {
  const awake = ids.filter((id) => !sleep.has(id));
  const tries = new Set(awake.slice(0, 1));
  for (const id of awake) if (alwaysTried(footprints.get(id)) || deferrable(footprints.get(id))) tries.add(id);
  if (awake.length > 0 && deferrable(footprints.get(awake[0]))) {
    const later = awake.find((id) => !deferrable(footprints.get(id)));
    if (later !== undefined) tries.add(later);
  }
  return tries;
}

/**
 * Adds to the backtrack sets of a run's nodes what its races call for.
 * @param {Array<{ ids: string[], footprints: Map<string, object>, sleep: Map<string, object>, index: number, backtrack: Set<string>,
 *   holders: Set<string>, waiting: Map<string, object> }>} stack the run's nodes, one per step taken, in order (holders: the
 *   choices the clock waited for there; waiting: the footprints of calls that waited there without being offered)
 * @param {{ ids: string[], footprints: Map<string, object>, waiting: Map<string, object> }} last what the world offered,
 *   and what waited, where the run ended
 * @param {number} from the first step that is new in this run: races ending before it were found by the runs before
 * @param {boolean} ended whether the run ended of itself (not blocked because every choice slept): then what it
 *   still offered counts as taken after its end
 */
export function addSourceSets(stack, last, from, ended) {
  const n = stack.length;
  const offered = stack.map((node) => new Set(node.ids));
  offered.push(new Set(last.ids));
  const waiting = [...stack.map((node) => node.waiting), last.waiting];
  const events = stack.map((node) => {
    const id = node.ids[node.index];
    return { id, footprint: node.footprints.get(id) };
  });
  // The steps that made an event possible: the one before which it was not
  // offered, and for a move of the clock the holders taken since it was free.
  const heldSince = (at, steps = new Set()) => {
    for (let h = at - 1; h >= 0 && stack[h].holders.size > 0; h--) if (stack[h].holders.has(events[h].id)) steps.add(h);
    return steps;
  };
  const enablers = (id, at, known = offered) => {
    let k = at - 1;
    while (k >= 0 && (known[k].has(id))) k--;
    const steps = new Set(k >= 0 ? [k] : []);
    return id.startsWith('advance:') ? heldSince(at, steps) : steps;
  };
  const words = Math.ceil((n + 1) / 32);
  const before = [];
  const dependent = [];
  for (let j = 0; j < n; j++) {
    const { hb, direct } = predecessors(events, before, words, j, events[j], enablers(events[j].id, j));
    before.push(hb);
    dependent.push(direct);
  }
  for (let j = Math.max(from, 0); j < n; j++) {
    reverseRaces(stack, events, before, dependent[j], before[j], j, events[j].id);
  }
  // Where the clock is held, its move waits there like a call for a lock.
  for (let k = Math.max(from, 0); k < n; k++) {
    if (stack[k].holders.size === 0) continue;
    const { hb, direct } = predecessors(events, before, words, k, { id: CLOCK, footprint: { kind: 'time' } }, heldSince(k));
    reverseRaces(stack, events, before, direct, hb, k, CLOCK);
  }
  const issued = waiting.map((w, k) => ({ has: (id) => offered[k].has(id) || w.has(id) }));
  for (let k = Math.max(from, 0); k <= n; k++) {
    for (const [id, footprint] of waiting[k]) {
      if (k > 0 && waiting[k - 1].has(id)) continue;
      const { hb, direct } = predecessors(events, before, words, k, { id, footprint }, enablers(id, k, issued));
      reverseRaces(stack, events, before, direct, hb, k, id);
    }
  }
  if (ended) {
    const taken = new Set(events.map((e) => e.id));
    for (const id of last.ids) {
      if (taken.has(id)) continue;
      const event = { id, footprint: last.footprints.get(id) };
      const { hb, direct } = predecessors(events, before, words, n, event, enablers(id, n));
      reverseRaces(stack, events, before, direct, hb, n, id);
    }
  }
  for (let k = 0; k < n; k++) {
    const node = stack[k];
    for (const id of node.ids) {
      if (id !== events[k].id && !offered[k + 1].has(id)) addChoice(node, id);
    }
  }
}

/**
 * The steps before position j that an event at j must follow: those it depends
 * on, those that made it possible (enabledBy), and everything those follow in turn.
 * @returns {{ hb: Uint32Array, direct: Set<number> }} hb as a bit set of positions;
 *   direct the positions it depends on itself (not only through enabling)
 */
function predecessors(events, before, words, j, event, enabledBy) {
  const hb = new Uint32Array(words);
  const direct = new Set();
  for (let i = 0; i < j; i++) {
    const depends = !independent(events[i].footprint, event.footprint);
    if (!depends && !enabledBy.has(i)) continue;
    if (depends && !enabledBy.has(i)) direct.add(i);
    hb[i >> 5] |= 1 << (i & 31);
    const earlier = before[i];
    for (let w = 0; w < words; w++) hb[w] |= earlier[w];
  }
  return { hb, direct };
}

/** Whether two bit sets share no position. */
function disjoint(a, b) {
  for (let w = 0; w < b.length; w++) if ((a[w] & b[w]) !== 0) return false;
  return true;
}

/** Whether position i is set in a bit set. */
function has(bits, i) {
  return (bits[i >> 5] & (1 << (i & 31))) !== 0;
}

/**
 * Finds the races that end at position j (an event with id `id`, which follows
 * the positions in hb and depends itself on those in direct) and adds an initial
 * of each reversal to the node where the race starts.
 */
function reverseRaces(stack, events, before, direct, hb, j, id) {
  const covered = new Uint32Array(hb.length);
  for (let i = j - 1; i >= 0; i--) {
    if (!has(hb, i)) continue;
    const immediate = !has(covered, i);
    const earlier = before[i];
    for (let w = 0; w < covered.length; w++) covered[w] |= earlier[w];
    if (!immediate || !direct.has(i)) continue;
    // The reversal: what came between and does not follow step i, then this
    // event; its initials are the steps of it that follow none of the others.
    const between = [];
    const inBetween = new Uint32Array(hb.length);
    for (let k = i + 1; k < j; k++) {
      if (has(before[k], i)) continue;
      between.push(k);
      inBetween[k >> 5] |= 1 << (k & 31);
    }
    const initials = between.filter((k) => disjoint(before[k], inBetween)).map((k) => events[k].id);
    if (disjoint(hb, inBetween)) initials.push(id);
    addInitial(stack[i], initials);
  }
}

/**
 * Makes sure a node tries one of the initials of a reversal (for a move of the
 * clock: what holds it there, or the move itself where it is free): nothing to
 * do when one is tried already or sleeps there; else the first offered one is
 * added, or every choice if none is offered (which the world's model should
 * never cause).
 */
function addInitial(node, reversal) {
  // The clock moves first where it is free, or once what holds it is taken.
  const initials = reversal.flatMap((id) => (id !== CLOCK ? [id]
    : node.holders.size > 0 ? [...node.holders] : node.ids.filter((c) => alwaysTried(node.footprints.get(c)))));
  if (initials.some((id) => node.backtrack.has(id) || node.sleep.has(id))) return;
  const offered = node.ids.find((id) => initials.includes(id));
  if (offered !== undefined) node.backtrack.add(offered);
  else for (const id of node.ids) addChoice(node, id);
}

/** Adds a choice to a node's backtrack set unless it sleeps there. */
function addChoice(node, id) {
  if (!node.sleep.has(id)) node.backtrack.add(id);
}
