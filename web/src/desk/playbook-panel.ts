// The playbook panel: hidden until a passing submission, then the dossier's
// on-call playbook beside the revealed root cause, with "Save the playbook"
// (Markdown) and a link to the learner's shelf of playbooks.
import { api } from '../lib/api';
import { h, panel, replace } from '../lib/dom';
import type { Playbook } from '../lib/types';
import { saveButton } from '../playbook/save';
import { playbookView } from '../playbook/view';

/** The playbook panel and how the page reveals it. */
export interface PlaybookPanel {
  el: HTMLElement;
  /** Shows the playbook once the API reveals it. */
  reveal(pb: Playbook | undefined): void;
}

/** The playbook panel of one dossier page. */
export function playbookPanel(): PlaybookPanel {
  const body = h('div', { class: 'pb-panel-body' });
  const el = panel('On-call playbook', body, { id: 'playbook', cls: 'playbook-panel' });
  el.hidden = true;
  let shown: string | null = null;
  return {
    el,
    reveal(pb) {
      if (!pb || pb.slug === shown) return;
      shown = pb.slug;
      replace(body,
        h('p', { class: 'pb-intro' }, 'Yours to keep: this incident as an on-call card, for the next time it happens in your own systems.'),
        h('div', { class: 'pb-actions' },
          saveButton('Save the playbook', `${pb.slug}-playbook.md`, () => api.playbookMarkdown(pb.slug), 'save-playbook'),
          h('a', { href: '/playbooks', 'data-link': true, class: 'pb-shelf-link' }, 'All your playbooks')),
        playbookView(pb, { level: 4, titled: false }));
      el.hidden = false;
    },
  };
}
