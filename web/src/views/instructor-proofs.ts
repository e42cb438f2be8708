// The instructor page's validation cell, proofs table (one line per claim
// of a validation) and a dossier's validation history.
import { h } from '../lib/dom';
import type { Proof, Validation } from '../lib/instructor-types';

/** The validation's state in a few words. */
export function validationLabel(v: Validation): string {
  switch (v.state) {
    case 'never': return 'Not validated';
    case 'running': return v.runs_total ? `Validating: ${v.runs_done} of ${v.runs_total} runs` : 'Validating…';
    case 'failed': return 'Could not validate';
    default: {
      const failed = v.proofs.filter((p) => !p.ok).length;
      return v.ok ? `All ${v.proofs.length} claims held` : `${failed} of ${v.proofs.length} claims failed`;
    }
  }
}

function proofRow(p: Proof): HTMLElement {
  return h('tr', { class: p.ok ? 'ok' : 'bad' },
    h('td', null, p.subject),
    h('td', null, p.suite),
    h('td', null, p.want),
    h('td', null, p.got),
    h('td', null, `${p.identical}/${p.runs} identical`),
    h('td', { class: 'result' }, p.ok ? 'ok' : 'VIOLATION'),
    h('td', { class: 'detail' }, p.detail));
}

/** The proofs table of a validation, or its error; null when there is none yet. */
export function proofsTable(slug: string, v: Validation): HTMLElement | null {
  if (v.state === 'failed') return h('p', { class: 'validate-error', role: 'alert' }, v.error ?? 'The runner failed.');
  if (v.state !== 'done') return null;
  return h('table', { class: 'proofs', 'aria-label': `Validation of ${slug}` },
    h('thead', null, h('tr', null, ['Subject', 'Suite', 'Want', 'Got', 'Runs', 'Result', 'Detail'].map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', null, v.proofs.map(proofRow)));
}

/** When, by whom and on which version a validation ran, and how it ended. */
function historyItem(v: Validation): HTMLElement {
  const when = v.started_at ? new Date(v.started_at).toLocaleString() : '';
  return h('li', { class: `validation-item ${v.state}${v.state === 'done' ? (v.ok ? ' ok' : ' bad') : ''}`, 'data-id': v.id ?? '' },
    h('span', { class: 'when' }, when),
    h('span', { class: 'who' }, v.requested_by ?? ''),
    h('code', { class: 'version', title: 'Digest of the dossier files and hidden suite' }, v.dossier_version ?? ''),
    h('span', { class: 'outcome' }, validationLabel(v)),
    v.error ? h('span', { class: 'detail' }, v.error) : null);
}

/** A dossier's validations, newest first. */
export function historyList(slug: string, list: Validation[]): HTMLElement {
  if (!list.length) return h('p', { class: 'muted small' }, 'Not validated yet.');
  return h('ol', { class: 'validation-history', 'aria-label': `Validations of ${slug}` }, list.map(historyItem));
}
