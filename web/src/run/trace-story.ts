// The one-sentence story of a failing interleaving, told from the trace
// alone: which call was still in flight (since it was issued) when another
// worker looked at the same key, or whose lease ran out under it, and what
// the workers went on to do that breaks the property (or, when no one step
// breaks it, the last lease that ran out). When the trace holds
// several requests, the story names the one each step served.
import { expiryStory, leaseStory } from './lease-story';
import { isRead, overlaps, type ModelStep, type Overlap, type TraceModel } from './trace-model';

/** The sentence, and the overlap it tells of (for the picture to stress). */
export interface Story {
  sentence: string;
  overlap?: Overlap;
}

/** The verb for what a step did to a key: "read", "wrote", "deleted"… */
function verb(st: ModelStep): string {
  const op = st.operation.toLowerCase();
  if (isRead(op)) return 'read';
  if (op === 'set' || op === 'write' || op === 'setifabsent') return 'wrote';
  if (op === 'delete' || op === 'del' || op === 'compareanddelete') return 'deleted';
  return `ran ${st.operation} on`;
}

/** Steps joined as "steps 10 and 15". */
function stepList(steps: ModelStep[]): string {
  const n = steps.map((s) => String(s.step));
  const joined = n.length > 1 ? `${n.slice(0, -1).join(', ')} and ${n[n.length - 1]}` : n[0];
  return `${n.length > 1 ? 'steps' : 'step'} ${joined}`;
}

/** Names joined as "blue and green". */
function names(workers: string[]): string {
  return workers.length > 1 ? `${workers.slice(0, -1).join(', ')} and ${workers[workers.length - 1]}` : workers[0];
}

/**
 * Picks the overlap that explains the failure: a read that missed a write
 * still in flight beats any other overlap, and among equals the last one
 * before the first step that breaks the property wins (the last check that
 * was fooled).
 */
function keyOverlap(all: Overlap[], firstBreak: number): Overlap | undefined {
  const before = all.filter((o) => o.during.index < firstBreak);
  const pool = before.length ? before : all;
  const reads = pool.filter((o) => isRead(o.during.operation) && !isRead(o.call.operation));
  const ranked = reads.length ? reads : pool;
  return ranked.reduce<Overlap | undefined>((best, o) => (!best || o.during.index > best.during.index ? o : best), undefined);
}

/** The request a step served, when the trace holds several: " (for job-7 #2)". */
function forRequest(st: ModelStep, model: TraceModel): string {
  return model.manyRequests && st.request ? ` (for ${st.request})` : '';
}

/** What the highlighted steps did: "blue and green both went on to send (steps 10 and 15)". */
function outcome(breaking: ModelStep[]): string {
  const workers = [...new Set(breaking.map((s) => s.worker))];
  const ops = [...new Set(breaking.map((s) => s.operation))];
  const requests = [...new Set(breaking.map((s) => s.request).filter((r): r is string => !!r))];
  if (workers.length > 1 && ops.length === 1) return `${names(workers)} both went on to ${ops[0]} (${stepList(breaking)})`;
  if (ops.length === 1 && requests.length > 1 && requests.length === breaking.length) {
    return `${names(workers)} went on to ${ops[0]} for ${requests.length === 2 ? 'both' : 'each of'} ${names(requests)} (${stepList(breaking)})`;
  }
  const first = breaking[0];
  return `${first.worker}'s ${first.operation}${first.key ? ` of ${first.key}` : ''} at step ${first.step} breaks the property`;
}

/** Tells the story of a model in one sentence. */
export function storyOf(model: TraceModel): Story {
  const breaking = model.steps.filter((s) => s.highlight);
  if (breaking.length === 0) return expiryStory(model) ?? { sentence: `${model.steps.length} steps of ${names(model.lanes)} led to the failure.` };
  const lease = leaseStory(model, breaking);
  if (lease) return lease;
  const overlap = keyOverlap(overlaps(model), breaking[0].index);
  const end = outcome(breaking);
  if (!overlap) return { sentence: `${end[0].toUpperCase()}${end.slice(1)}.` };
  const { call, during } = overlap;
  const since = call.wait?.since !== undefined ? ` (since ${call.wait.since} ms)` : '';
  const saw = isRead(during.operation) ? ` and got ${during.outcome}` : '';
  return {
    overlap,
    sentence: `${call.worker}'s ${call.operation} of ${call.key}${forRequest(call, model)} was still in flight${since} `
      + `when ${during.worker}${forRequest(during, model)} ${verb(during)} it at step ${during.step}${saw}; ${end}.`,
  };
}
