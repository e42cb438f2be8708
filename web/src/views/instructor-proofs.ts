// The instructor page's validation cell and proofs table: one line per claim
// of the dossier's last validation.
import { h } from '../lib/dom';
import type { Proof, Validation } from '../lib/instructor-types';

/** The validation's state in a few words. */
export function validationLabel(v: Validation): string {
  switch (v.state) {
    case 'never': return 'Not validated';
    case 'running': return 'Validating…';
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
