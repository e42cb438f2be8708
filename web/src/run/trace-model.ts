// The failing interleaving as a model the timeline draws: each step in the
// order it happened, its worker's lane, and for each remote call the stretch
// of the interleaving it spent in flight. A worker awaits its calls one after
// another, so a call leaves the worker right after that worker's previous
// step and reaches the store at its own step; every step of another worker
// in between happened while it was in flight.
import type { TraceStep } from '../lib/types';

/** What a step is: a store call, a side effect (another remote call) or a job event. */
export type StepKind = 'store' | 'effect' | 'lifecycle';

/** The stretch of the interleaving a call (or a timer) spent waiting. */
export interface Wait {
  /** A remote call in flight, or a timer the worker waits on. */
  kind: 'call' | 'timer';
  /** Index of the worker's previous step: the call left right after it. */
  after: number;
  /** Virtual time the call was issued, when the harness reports it arrived later. */
  since?: number;
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
  /** How the step was waited for; absent for a worker's first step and for job events. */
  wait?: Wait;
}

/** A trace ready to draw: its lanes and its steps in order. */
export interface TraceModel {
  lanes: string[];
  steps: ModelStep[];
}

const storeOps = new Set([
  'get', 'set', 'delete', 'del', 'setifabsent', 'setnx', 'compareanddelete', 'compareandset', 'incr', 'decr',
  'expire', 'read', 'write', 'lock', 'unlock', 'acquire', 'release', 'begin', 'commit', 'rollback', 'select',
  'update', 'insert', 'exists',
]);
const lifecycleOps = new Set([
  'receive', 'handle', 'ack', 'nack', 'start', 'finish', 'crash', 'recover', 'timer', 'sleep', 'tick', 'deliver',
  'return', 'stall', 'uncaught',
]);
const readOps = new Set(['get', 'read', 'exists', 'select']);

/** Classifies an operation: a store call, a job event or a side effect. */
export function stepKind(operation: string): StepKind {
  const op = operation.toLowerCase().replace(/[\s_-]/g, '');
  if (storeOps.has(op)) return 'store';
  if (lifecycleOps.has(op)) return 'lifecycle';
  return 'effect';
}

/** Whether an operation only reads what the store holds. */
export function isRead(operation: string): boolean {
  return readOps.has(operation.toLowerCase());
}

const inFlightNote = /\s*\(in flight since (\d+(?:\.\d+)?) ms\)$/;

/** Builds the model of a trace; steps are ordered by their step number. */
export function traceModel(trace: TraceStep[]): TraceModel {
  const sorted = [...trace].sort((a, b) => a.step - b.step);
  const lanes: string[] = [];
  const lastOf = new Map<string, number>();
  const steps = sorted.map((st, index): ModelStep => {
    if (!lanes.includes(st.worker)) lanes.push(st.worker);
    const kind = stepKind(st.operation);
    const note = inFlightNote.exec(st.result);
    const previous = lastOf.get(st.worker);
    lastOf.set(st.worker, index);
    const timer = st.operation.toLowerCase() === 'timer';
    const waits = previous !== undefined && (kind !== 'lifecycle' || timer);
    return {
      ...st, index, lane: lanes.indexOf(st.worker), kind,
      outcome: note ? st.result.slice(0, note.index) : st.result,
      wait: waits ? { kind: timer ? 'timer' : 'call', after: previous, since: note ? Number(note[1]) : undefined } : undefined,
    };
  });
  return { lanes, steps };
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
    for (let i = call.wait.after + 1; i < call.index; i++) {
      const other = model.steps[i];
      if (other.worker !== call.worker && other.key === call.key && other.kind !== 'lifecycle') found.push({ call, during: other });
    }
  }
  return found;
}
