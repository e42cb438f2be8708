// Tells a run that waits from one that computes or is only starved, for the
// watchdog. A run is idle when, over the last IDLE_WINDOW_MS, its processes used
// less than IDLE_SHARE of one CPU and not one of their threads was seen running,
// runnable or in uninterruptible wait. A run starved by a busy machine has
// runnable threads, so it is never idle however little CPU it gets; and the
// watchdog must itself have looked often enough over the window to say so.

import fs from 'node:fs';

/** How long a run must sit idle before it is stopped. */
export const IDLE_WINDOW_MS = 10_000;
/** The share of one CPU below which a run uses too little to be computing. */
export const IDLE_SHARE = 0.05;

/** Thread states that want or hold a CPU: running or runnable, and uninterruptible (disk) wait. */
const BUSY_STATES = new Set(['R', 'D']);

/**
 * One look at the run: when (ms, monotonic), the CPU time its processes used so
 * far (NaN when unknown), and whether any of their threads wanted a CPU.
 * @typedef {{ at: number, cpuMs: number, busy: boolean }} Look
 */

/** The looks of the last window and the verdict on them. */
export class IdleWatch {
  /** @param {{ pollMs: number, windowMs?: number }} options pollMs is how often looks are taken */
  constructor({ pollMs, windowMs = IDLE_WINDOW_MS }) {
    this.windowMs = windowMs;
    this.minLooks = Math.ceil(windowMs / pollMs / 2);
    /** @type {Look[]} */
    this.looks = [];
  }

  /** Records a look, the newest so far, keeping the newest one at least a window old and all after it. */
  add(look) {
    this.looks.push(look);
    while (this.looks.length > 1 && look.at - this.looks[1].at >= this.windowMs) this.looks.shift();
  }

  /** Whether the looks of the last window show a run that waits: too little CPU, nobody runnable, looked at often enough. */
  idle() {
    const { looks } = this;
    if (looks.length < this.minLooks) return false;
    const first = looks[0];
    const last = looks[looks.length - 1];
    const span = last.at - first.at;
    if (span < this.windowMs || looks.some((look) => look.busy)) return false;
    const used = last.cpuMs - first.cpuMs;
    return !(used >= IDLE_SHARE * span);
  }
}

/** The state letter of a /proc stat line: the field after the command name, which may hold spaces and parentheses. */
function stateOf(stat) {
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

/** Reads a file, or '' when it is gone (the process ended meanwhile). */
function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/**
 * Whether any thread of any descendant of process `root` is running, runnable or
 * in uninterruptible wait, by /proc. In a container's pid namespace that is every
 * process but the watchdog; on a host (tests) it is the watchdog's own subtree.
 * @param {number} root
 */
export function descendantsBusy(root) {
  const parents = new Map();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = read(`/proc/${name}/stat`);
    if (stat) parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const inTree = new Map([[root, true]]);
  const isDescendant = (pid) => {
    const path = [];
    let at = pid;
    while (!inTree.has(at) && parents.has(at) && at > 0) {
      path.push(at);
      at = parents.get(at);
    }
    const yes = inTree.get(at) === true;
    for (const p of path) inTree.set(p, yes);
    return yes;
  };
  for (const pid of parents.keys()) {
    if (pid === root || !isDescendant(pid)) continue;
    let tasks = [];
    try {
      tasks = fs.readdirSync(`/proc/${pid}/task`);
    } catch { /* ended meanwhile */ }
    if (tasks.some((tid) => BUSY_STATES.has(stateOf(read(`/proc/${pid}/task/${tid}/stat`))))) return true;
  }
  return false;
}
