// The story of a lease that ran out under its holder: the holder was frozen,
// or waiting on a slow call, when its lease on a key expired; another worker
// took the key; and the holder, unaware, went on to do what only the key's
// holder may do. When no step breaks the property (something never
// happened), the last expiry and what its holder was doing is the story.
import type { ModelStep, TraceModel } from './trace-model';
import type { Story } from './trace-story';

/** Operations that take a key when they succeed. */
const takes = new Set(['set', 'setifabsent', 'compareandset', 'acquire', 'lock', 'write']);

/** Whether a step took the key: a successful write or claim. */
function tookKey(st: ModelStep): boolean {
  return st.kind === 'store' && takes.has(st.operation.toLowerCase()) && !/^(false|error|failed)/.test(st.outcome);
}

/** The holder's call that was in flight when its lease ran out, if any. */
function callInFlight(model: TraceModel, expiry: ModelStep): ModelStep | undefined {
  return model.steps.find((st) => st.worker === expiry.worker && st.wait?.kind === 'call'
    && st.wait.from <= expiry.index && st.index > expiry.index);
}

/** What the holder was doing when its lease ran out: frozen, or waiting on a call. */
function meanwhile(model: TraceModel, expiry: ModelStep): string {
  const frozen = model.frozen.find((f) => f.lane === expiry.lane && f.from < expiry.index && (f.to === undefined || f.to > expiry.index));
  if (frozen) {
    const from = model.steps[frozen.from].step;
    return frozen.to === undefined ? ` while ${expiry.worker} was frozen (from step ${from})`
      : ` while ${expiry.worker} was frozen (steps ${from} to ${model.steps[frozen.to].step})`;
  }
  const call = callInFlight(model, expiry);
  if (!call) return '';
  const since = call.wait?.since !== undefined ? ` (since ${call.wait.since} ms)` : '';
  return ` while its ${call.operation} was still in flight${since}`;
}

/** The last lease that ran out, and what its holder was doing; undefined when none did. */
export function expiryStory(model: TraceModel): Story | undefined {
  const expiry = model.steps.filter((st) => st.kind === 'expiry' && st.key).pop();
  if (!expiry) return undefined;
  const call = callInFlight(model, expiry);
  return {
    overlap: call ? { call, during: expiry } : undefined,
    sentence: `${expiry.worker}'s lease on ${expiry.key} ran out at step ${expiry.step}${meanwhile(model, expiry)}.`,
  };
}

/**
 * Tells the story when a lease ran out, another worker took its key, and
 * the former holder then took a step that breaks the property; undefined
 * when the trace does not tell that story. A call of the holder's in flight
 * across the expiry is the story's overlap.
 */
export function leaseStory(model: TraceModel, breaking: ModelStep[]): Story | undefined {
  for (const expiry of model.steps.filter((st) => st.kind === 'expiry' && st.key)) {
    const holder = expiry.worker;
    const taker = model.steps.find((st) => st.index > expiry.index && st.worker !== holder && st.key === expiry.key && tookKey(st));
    const late = breaking.find((st) => st.worker === holder && taker && st.index > taker.index);
    if (!taker || !late) continue;
    const call = callInFlight(model, expiry);
    return {
      overlap: call ? { call, during: expiry } : undefined,
      sentence: `${holder}'s lease on ${expiry.key} ran out at step ${expiry.step}${meanwhile(model, expiry)}; `
        + `${taker.worker} took it at step ${taker.step}, and ${holder} still went on to ${late.operation}`
        + `${late.key ? ` ${late.key}` : ''} at step ${late.step}.`,
    };
  }
  return undefined;
}
