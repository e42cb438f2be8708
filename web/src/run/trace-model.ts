// The failing interleaving as a model the timeline draws: each step in the
// order it happened, its worker's lane, for each remote call the stretch of
// the interleaving it spent in flight, and the stretches in which a worker
// was frozen. A request awaits its calls one after another, so a call leaves
// right after the previous step of the same request (or, when the harness
// says when it was issued, once the clock reached that time) and arrives at
// its own step; every step of another worker in between happened while it
// was in flight.
import type { TraceStep } from '../lib/types';

/**
 * What a step is: a call to the store (or the lock service), a side effect
 * (any other remote), a job event, a worker freezing or waking, or a lease
 * running out.
 */
export type StepKind = 'store' | 'effect' | 'lifecycle' | 'freeze' | 'expiry';

/** The stretch of the interleaving a call (or a timer) spent waiting. */
export interface Wait {
  /** A remote call in flight, or a timer the worker waits on. */
  kind: 'call' | 'timer';
  /** Index of the request's previous step: the call left after it. */
  after: number;
  /** Index of the first step it was in flight for (after + 1 unless it was issued later). */
  from: number;
  /** Virtual time the call was issued, when the harness reports it arrived later. */
  since?: number;
}

/** A stretch in which a worker's process was frozen: from its pause to its wake. */
export interface Frozen {
  lane: number;
  /** Index of the step that froze it. */
  from: number;
  /** Index of the step that woke it; absent when it never woke in the trace. */
  to?: number;
}

/** A step of the trace with what the timeline needs to draw it. */
export interface ModelStep extends TraceStep {
  /** Position in the interleaving, from 0. */
  index: number;
  /** The worker's lane, from 0, in order of first appearance. */
  lane: number;
  kind: StepKind;
  /** The result without the "(in flight since … ms)" note, which `wait.since` carries. */
  outcome: string;
  /** How the step was waited for; absent for a request's first step and for job events. */
  wait?: Wait;
}

/** A trace ready to draw: its lanes, its steps in order and the workers' frozen stretches. */
export interface TraceModel {
  lanes: string[];
  steps: ModelStep[];
  frozen: Frozen[];
  /** Whether the steps belong to more than one request, so each step names its own. */
  manyRequests: boolean;
}

/** The remotes the harness answers as the shared store. */
const storeServices = new Set(['store', 'locks']);
const storeOps = new Set([
  'get', 'set', 'delete', 'del', 'setifabsent', 'setnx', 'compareanddelete', 'compareandset', 'incr', 'decr',
  'expire', 'read', 'write', 'lock', 'unlock', 'acquire', 'release', 'begin', 'commit', 'rollback', 'select',
  'update', 'insert', 'exists',
]);
const lifecycleOps = new Set([
  'receive', 'handle', 'ack', 'nack', 'start', 'finish', 'crash', 'recover', 'timer', 'sleep', 'tick', 'deliver',
  'return', 'uncaught', 'answer', 'random',
]);
const freezeOps = new Set(['pause', 'stall', 'wake']);
const readOps = new Set(['get', 'read', 'exists', 'select']);

/** An operation's name without case, spaces, dashes or underscores. */
function bare(operation: string): string {
  return operation.toLowerCase().replace(/[\s_-]/g, '');
}

/**
 * Classifies a step by the remote it went to when the trace says so, and
 * otherwise (runs stored before traces named it) by its operation.
 */
export function stepKind(operation: string, service?: string): StepKind {
  const op = bare(operation);
  if (op === 'expired') return 'expiry';
  if (freezeOps.has(op)) return 'freeze';
  if (service) return storeServices.has(service) ? 'store' : 'effect';
  if (storeOps.has(op)) return 'store';
  if (lifecycleOps.has(op)) return 'lifecycle';
  return 'effect';
}

/** Whether an operation only reads what the store holds. */
export function isRead(operation: string): boolean {
  return readOps.has(operation.toLowerCase());
}

const inFlightNote = /\s*\(in flight since (\d+(?:\.\d+)?) ms\)$/;

/** Whether a step can be the one a later step of its request waited after: something the request itself did. */
function anchors(st: ModelStep, request: string | undefined): boolean {
  if (st.kind === 'expiry' || bare(st.operation) === 'wake') return false;
  return !request || st.request === request;
}

/** How a step was waited for, or undefined when it was not. */
function waitOf(st: ModelStep, steps: ModelStep[], since: number | undefined): Wait | undefined {
  const timer = bare(st.operation) === 'timer';
  if (st.kind !== 'store' && st.kind !== 'effect' && !timer) return undefined;
  let after = -1;
  for (let i = st.index - 1; i >= 0 && after < 0; i--) {
    if (steps[i].worker === st.worker && anchors(steps[i], st.request)) after = i;
  }
  if (after < 0) return undefined;
  let from = after + 1;
  if (since !== undefined) while (from < st.index && steps[from].at < since) from++;
  return { kind: timer ? 'timer' : 'call', after, from, since };
}

/** The stretches in which workers were frozen: each pause or stall to the worker's next wake. */
function frozenStretches(steps: ModelStep[]): Frozen[] {
  const out: Frozen[] = [];
  for (const st of steps) {
    const op = bare(st.operation);
    if (op !== 'pause' && op !== 'stall') continue;
    const wake = steps.find((w) => w.index > st.index && w.worker === st.worker && bare(w.operation) === 'wake');
    out.push({ lane: st.lane, from: st.index, to: wake?.index });
  }
  return out;
}

/** Builds the model of a trace; steps are ordered by their step number. */
export function traceModel(trace: TraceStep[]): TraceModel {
  const sorted = [...trace].sort((a, b) => a.step - b.step);
  const lanes: string[] = [];
  const steps: ModelStep[] = [];
  for (const [index, st] of sorted.entries()) {
    if (!lanes.includes(st.worker)) lanes.push(st.worker);
    const note = inFlightNote.exec(st.result);
    const step: ModelStep = {
      ...st, index, lane: lanes.indexOf(st.worker), kind: stepKind(st.operation, st.service),
      outcome: note ? st.result.slice(0, note.index) : st.result,
    };
    step.wait = waitOf(step, steps, st.issued ?? (note ? Number(note[1]) : undefined));
    steps.push(step);
  }
  const requests = new Set(steps.map((s) => s.request).filter(Boolean));
  return { lanes, steps, frozen: frozenStretches(steps), manyRequests: requests.size > 1 };
}

/** A call in flight while another worker touched the same key. */
export interface Overlap {
  /** The call in flight. */
  call: ModelStep;
  /** The other worker's step that happened meanwhile. */
  during: ModelStep;
}

/** Every step of another worker on the same key that happened while a call was in flight. */
export function overlaps(model: TraceModel): Overlap[] {
  const found: Overlap[] = [];
  for (const call of model.steps) {
    if (call.wait?.kind !== 'call' || !call.key) continue;
    for (let i = call.wait.from; i < call.index; i++) {
      const other = model.steps[i];
      if (other.worker !== call.worker && other.key === call.key && (other.kind === 'store' || other.kind === 'effect')) {
        found.push({ call, during: other });
      }
    }
  }
  return found;
}
