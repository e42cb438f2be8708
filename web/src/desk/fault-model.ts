// The fault model: what the code has to cope with in production and what it
// may rely on, as the repository's README states it. It is part of the
// problem statement, so it reads as sentences, one row per kind of fault.
import { h, panel } from '../lib/dom';
import type { Delivery, FaultModel, Remote } from '../lib/types';

/** How calls to a remote fail, in words. */
function failureText(r: Remote): string {
  if (!r.failures?.length) return 'Calls do not fail.';
  const effect = { none: 'did nothing', applied: 'may still have taken effect', unknown: 'may or may not have taken effect' };
  const kind = { error: 'fail with an error', timeout: 'time out', refused: 'be refused' };
  return r.failures.map((f) => `${f.calls?.length ? f.calls.map((c) => `${c}()`).join(', ') : 'Calls'} can ${kind[f.kind]}; such a call ${effect[f.effect]}.`).join(' ');
}

/** One remote: its name, what it is, how long a call takes and how it fails. */
function remoteItem(r: Remote): HTMLElement {
  const min = r.latency.min && !/^0 /.test(r.latency.min) ? `${r.latency.min} to ${r.latency.max}` : `up to ${r.latency.max}`;
  return h('li', { class: 'fm-remote' },
    h('code', { class: 'fm-name' }, r.name), ' ', h('span', { class: 'fm-label' }, r.label), ': ',
    `a call takes ${min}`,
    r.waits?.length ? `, and ${r.waits.map((m) => `${m}()`).join(', ')} also waits for as long as another worker holds what it asks for` : '',
    r.timeout ? `; the client gives up after ${r.timeout}` : '',
    r.min_poll_interval ? `; a request that waits for something there may call it at most every ${r.min_poll_interval}` : '',
    '. ', failureText(r));
}

/** How work arrives, in words. */
function deliveryText(d: Delivery): string {
  if (d.semantics === 'once') return 'Every piece of work arrives exactly once and is never sent again.';
  const parts = ['At least once: the same work can arrive more than once'];
  if (d.redelivery_after) parts.push(`; work not acknowledged arrives again ${/^0 /.test(d.redelivery_after) ? 'at once' : `after ${d.redelivery_after}`}`);
  if (d.redelivery_until) parts.push(`, for up to ${d.redelivery_until} after it first arrived`);
  parts.push(d.duplicates === 'overlapping' ? '; a repeat can arrive while the first is still being handled, on any worker' : '; a repeat arrives only after the first was answered');
  if (d.same_id) parts.push('; every repeat carries the same id');
  return `${parts.join('')}.`;
}

/** A row of the fault model: what it is about, then what holds. */
function row(term: string, ...desc: (HTMLElement | string)[]): HTMLElement {
  return h('div', { class: 'fm-row' }, h('dt', null, term), h('dd', null, ...desc));
}

/** The fault model panel. */
export function faultModelPanel(m: FaultModel): HTMLElement {
  const leases = m.leases ?? [];
  const timeouts = m.timeouts ?? [];
  const pauses = !m.pauses ? 'Workers never freeze.'
    : m.pauses.max === 'unbounded' ? 'A worker can freeze at any point, for any length (longer than any lease), while the remotes\u2019 clocks go on.'
      : `A worker can freeze at any point for up to ${m.pauses.max}, while the remotes\u2019 clocks go on.`;
  return panel('Fault model', h('div', { class: 'fault-model' },
    h('p', { class: 'fm-lead' }, 'What the code has to cope with in production, and what it may rely on (the repository README states the same). The hidden tests explore exactly this.'),
    h('dl', { class: 'fm-rows' },
      row('Workers', `${m.workers} separate process${m.workers === 1 ? '' : 'es'}, sharing nothing but the remotes below. `,
        m.handles === 'many-at-once'
          ? 'Each handles many pieces of work at once, and those share its memory: a variable, Map or lock in the process is seen by all of them.'
          : 'Each takes the next piece of work only once it answered the one before.'),
      row('Remotes', h('ul', { class: 'fm-remotes' }, m.remotes.map(remoteItem))),
      row('Delivery', deliveryText(m.delivery)),
      leases.length ? row('Leases', h('ul', { class: 'fm-list' }, leases.map((l) => h('li', null,
        `${l.name}${l.key ? ' ' : ''}`, l.key ? h('code', null, l.key) : '', `: lasts ${l.ttl} after it was written or renewed, ended by ${l.clock === 'store' ? 'the store\u2019s clock, which goes on while its holder is frozen' : 'its holder\u2019s clock'}.`)))) : null,
      timeouts.length ? row('Time limits', h('ul', { class: 'fm-list' }, timeouts.map((t) => h('li', null, `After ${t.after}: ${t.name}.`)))) : null,
      row('Pauses', pauses),
      row('Crashes', m.crashes === 'anywhere' ? 'A worker can die at any point, without running finally blocks.' : 'Workers do not die while handling work.')),
    m.note ? h('p', { class: 'fm-note' }, m.note) : null), { id: 'fault-model' });
}
