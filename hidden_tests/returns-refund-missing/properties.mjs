// What must hold in every schedule of the returns worker: properties the
// harness judges, each on the world's database, bus and trace.

import { byId } from './returns.mjs';

/** The step at which each return was approved in this schedule. */
function approvals(world) {
  const at = new Map();
  for (const send of world.sends) {
    if (send.key.startsWith('approved:') && !at.has(send.key.slice(9))) at.set(send.key.slice(9), send.step);
  }
  return at;
}

/** Every return.approved event the bus kept, with the step that published it. */
function approvedEvents(world) {
  const steps = new Map(world.sends.filter((s) => s.key.startsWith('published:')).map((s) => [Number(s.key.slice(10)), s.step]));
  return world.services.state('bus').events
    .map((e, i) => ({ ...e, step: steps.get(i) }))
    .filter((e) => e.event?.type === 'return.approved');
}

const returnNow = (world, id) => world.services.state('db').tables.returns.get(id);
const money = (cents) => (cents / 100).toFixed(2);

/**
 * The step at which a delivery (a request label) answered after step `after`,
 * if it ended well: it returned, and none of its calls failed. Null otherwise.
 */
function endedWell(world, request, after) {
  const handled = world.trace.find((s) => s.operation === 'handle' && s.request === request && s.step > after);
  const failed = world.trace.some((s) => s.request === request && /^failed/.test(s.result));
  return handled && /^returned /.test(handled.result) && !failed ? handled.step : null;
}

/** The step by which every command was answered, or null while one is unanswered. */
function commandsAnsweredAt(world) {
  if (world.deliveries.some((d) => /^(approve|cancel)-/.test(d.job) && !d.acked)) return null;
  return Math.max(0, ...world.trace.filter((s) => s.operation === 'handle' && /^(approve|cancel)-/.test(s.key)).map((s) => s.step));
}

/**
 * The README's "next housekeeping run": the first run that starts once every
 * command is answered, overlaps no other run (a run another one is busy
 * beside may leave the work to it), and ends on a live worker with none of
 * its calls failed (a bus that refuses excuses it). Null when the schedule
 * has none; then only the end of the schedule is judged.
 */
function nextCleanRun(world) {
  const steps = world.trace;
  const answered = commandsAnsweredAt(world);
  if (answered === null) return null;
  const runs = steps.filter((s) => s.operation === 'receive' && /^tick-/.test(s.key)).map((received) => {
    const handled = steps.find((s) => s.operation === 'handle' && s.request === received.request);
    const crash = steps.find((s) => s.operation === 'crash' && s.worker === received.worker && s.step > received.step);
    return { received, handled, until: handled?.step ?? crash?.step ?? Infinity };
  });
  for (const run of runs) {
    if (run.received.step <= answered || endedWell(world, run.received.request, run.received.step) === null) continue;
    if (runs.some((other) => other !== run && other.received.step < run.until && other.until > run.received.step)) continue;
    return run;
  }
  return null;
}

/**
 * Every return approved in the schedule has its return.approved event on the
 * returns topic: by the end, and already when the next housekeeping run after
 * the commands were answered has ended.
 */
export const noLostRefund = {
  end(world) {
    const events = approvedEvents(world).filter((e) => e.topic === 'returns');
    const run = nextCleanRun(world);
    if (run) {
      for (const [id, step] of approvals(world)) {
        if (events.some((e) => e.event.returnId === id && e.step.step < run.handled.step)) continue;
        world.violate('noLostRefund',
          `${id} was approved at step ${step.step}, and every command was answered before ${run.received.request} (${run.received.worker}) `
          + `started at step ${run.received.step}, yet that housekeeping run ended at step ${run.handled.step}, alone and with no call failed, `
          + `without a return.approved event for ${id} on the returns topic: the README promises the event once the next housekeeping run has ended`,
          [step, run.received, run.handled]);
        return;
      }
    }
    for (const [id, step] of approvals(world)) {
      if (events.some((e) => e.event.returnId === id)) continue;
      const elsewhere = approvedEvents(world).find((e) => e.event.returnId === id);
      world.violate('noLostRefund',
        `${id} was approved at step ${step.step}, but no return.approved event for it reached the returns topic`
        + `${elsewhere ? ` (one went to "${elsewhere.topic}", which refunds does not read)` : ''}: `
        + `the refunds service will never pay the customer back ${money(byId[id].amountCents)}`, [step]);
      return;
    }
  },
};

/**
 * Every return.approved event is for a return approved in this schedule,
 * published after the approval was written, with the return's amount.
 */
export const noEventWithoutApproval = {
  end(world) {
    const approved = approvals(world);
    for (const e of approvedEvents(world)) {
      const id = e.event.returnId;
      const ret = returnNow(world, id);
      const at = approved.get(id);
      let wrong = null;
      if (!at && ret?.status === 'approved') {
        wrong = `${id} was approved on ${ret.approvedAt?.slice(0, 10)} and refunded then, but a return.approved event for it was published again at step ${e.step.step} under the id "${e.event.id}": the README publishes return.approved for an approval being written, never again for a return refunded long ago`;
      } else if (!at) {
        wrong = `a return.approved event for ${id} was published at step ${e.step.step}, but ${id} was never approved (it is ${ret?.status ?? 'missing'}): refunds pays ${money(byId[id]?.amountCents ?? 0)} for goods the customer kept`;
      } else if (e.step.step < at.step) {
        wrong = `a return.approved event for ${id} was published at step ${e.step.step}, before the approval was written at step ${at.step}: refunds pays for an approval the database did not have yet`;
      } else if (e.event.amountCents !== ret.amountCents || e.event.orderId !== ret.orderId) {
        wrong = `the return.approved event for ${id} says order ${e.event.orderId}, ${money(e.event.amountCents ?? 0)}, but the return is order ${ret.orderId}, ${money(ret.amountCents)}`;
      } else if (e.event.approvedBy !== ret.approvedBy || e.event.approvedAt !== ret.approvedAt) {
        wrong = `the return.approved event for ${id} says it was approved by ${e.event.approvedBy} at ${e.event.approvedAt}, `
          + `but the return was approved by ${ret.approvedBy} at ${ret.approvedAt}: the event's fields are the return's`;
      }
      if (wrong) {
        world.violate('noEventWithoutApproval', wrong, [e.step, at].filter(Boolean));
        return;
      }
    }
  },
};

/** The refunds service pays once per event id: no return is announced under two ids. */
export const oneRefundPerReturn = {
  end(world) {
    const ids = new Map();
    for (const e of approvedEvents(world).filter((x) => x.topic === 'returns')) {
      ids.set(e.event.returnId, [...(ids.get(e.event.returnId) ?? []), e]);
    }
    for (const [id, events] of ids) {
      const distinct = [...new Set(events.map((e) => e.event.id))];
      if (distinct.length <= 1) continue;
      world.violate('oneRefundPerReturn',
        `${id} was announced under ${distinct.length} different event ids (${distinct.join(', ')}): refunds ignores a repeated id, not a new one, so it pays ${money(byId[id].amountCents)} ${distinct.length} times`,
        events.map((e) => e.step));
      return;
    }
  },
};

/**
 * Every command a live worker answered was answered truthfully, none was left
 * unanswered, and a return that was approved and not cancelled ends approved.
 */
export const answersTrue = {
  end(world) {
    const commands = world.deliveries.filter((d) => /^(approve|cancel)-/.test(d.job));
    for (const d of commands) {
      if (!d.acked && world.crashed.has(d.worker)) continue;
      const id = d.job.replace(/^(approve|cancel)-/, '');
      const status = returnNow(world, id)?.status;
      const truth = {
        approved: status === 'approved',
        'not-approvable': status !== 'approved',
        cancelled: status === 'cancelled',
        'too-late': status === 'approved',
      };
      let wrong = null;
      if (!d.acked) wrong = `${d.job} was never answered: its last delivery ended with ${JSON.stringify(d.outcome ?? 'nothing')}`;
      else if (truth[d.outcome] === false) wrong = `${d.job} was answered ${JSON.stringify(d.outcome)}, but ${id} is ${status}`;
      if (wrong) {
        world.violate('answersTrue', wrong, world.trace.filter((s) => s.operation === 'handle' && s.key === d.job));
        return;
      }
    }
    for (const job of new Set(commands.map((d) => d.job).filter((j) => j.startsWith('approve-')))) {
      const id = job.slice('approve-'.length);
      const cancelled = commands.some((d) => d.job === `cancel-${id}`);
      if (!cancelled && byId[id].status === 'requested' && returnNow(world, id)?.status !== 'approved') {
        world.violate('answersTrue', `the agent approved ${id}, but it is still ${returnNow(world, id)?.status} after every delivery of the command`);
        return;
      }
    }
  },
};

/**
 * Housekeeping is quiet when there is nothing to do: a housekeeping run that
 * starts after every command was answered and every approved return's event
 * was confirmed by the bus to a delivery that then ended well (answered, and
 * none of its calls failed) publishes nothing. Before that, a run may publish
 * an event again: its earlier publish may not have reached the bus, or not
 * have been recorded.
 */
export const quietHousekeeping = {
  end(world) {
    const steps = world.trace;
    let quietFrom = commandsAnsweredAt(world);
    if (quietFrom === null) return;
    for (const id of approvals(world).keys()) {
      const settled = approvedEvents(world)
        .filter((e) => e.topic === 'returns' && e.event.returnId === id && !/^failed/.test(e.step.result))
        .map((e) => endedWell(world, e.step.request, e.step.step)).filter((step) => step !== null);
      if (settled.length === 0) return;
      quietFrom = Math.max(quietFrom, Math.min(...settled));
    }
    for (const publish of steps.filter((s) => s.service === 'bus' && s.operation === 'publish' && s.request?.startsWith('tick-'))) {
      const received = steps.find((s) => s.operation === 'receive' && s.request === publish.request);
      if (!received || received.step <= quietFrom) continue;
      world.violate('quietHousekeeping',
        `${publish.request} started at step ${received.step}, when every command was answered and the bus had confirmed every event, `
        + `yet it published again (${publish.result}): housekeeping would send every event again every 10 s, for ever`, [received, publish]);
      return;
    }
  },
};
