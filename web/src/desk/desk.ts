// The evidence desk: every panel of the dossier in reading order (the
// playbook appears beside the hypotheses once the root cause is revealed),
// followed by the coach, the Evidence Map and the dossier's facts.
import { h } from '../lib/dom';
import { capitalise, kindShelf } from '../lib/format';
import type { Dossier } from '../lib/types';
import { architecturePanel } from './architecture';
import { faultModelPanel } from './fault-model';
import { focusPanel, reproductionPanel, scopePanels } from './guide';
import { hypothesesPanel, type HypothesesPanel } from './hypotheses';
import { incidentHeader, incidentPanels } from './incident';
import { playbookPanel, type PlaybookPanel } from './playbook-panel';
import { changesPanel, logsPanel, metricsPanel } from './signals';

export interface DeskParts {
  open(path: string): void;
  toggleFocus(): void;
  /** Where the learner's hypothesis mark is kept (per dossier). */
  markKey: string;
  /** Hears each hypothesis the learner marks. */
  onMark(id: string): void;
  shelfCount: HTMLElement;
  coach: HTMLElement;
  evidenceMap: HTMLElement;
}

export interface Desk {
  el: HTMLElement;
  hypotheses: HypothesesPanel;
  /** The on-call playbook, shown beside the root cause once it is revealed. */
  playbook: PlaybookPanel;
}

/** Builds the desk column. */
export function desk(d: Dossier, parts: DeskParts): Desk {
  const hypotheses = hypothesesPanel(d.hypotheses, parts.markKey, parts.onMark);
  const playbook = playbookPanel();
  const el = h('section', { class: 'desk', id: 'desk', 'aria-label': 'Incident Dossier and Evidence desk' },
    incidentHeader(d),
    h('div', { class: 'desk-title' },
      h('h2', null, 'Evidence desk'),
      h('span', { class: 'shelf' }, kindShelf(d.kind), ' · ', parts.shelfCount)),
    incidentPanels(d),
    architecturePanel(d),
    faultModelPanel(d.fault_model),
    logsPanel(d.logs),
    metricsPanel(d.metrics),
    changesPanel(d.changes, parts.open),
    hypotheses.el,
    playbook.el,
    reproductionPanel(d),
    focusPanel(d, parts.open, parts.toggleFocus),
    scopePanels(d, parts.open),
    parts.coach,
    parts.evidenceMap,
    h('dl', { class: 'facts' },
      h('div', null, h('dt', null, 'Topic'), h('dd', null, d.topic)),
      h('div', null, h('dt', null, 'Failure class'), h('dd', null, d.failure_class.label)),
      h('div', null, h('dt', null, 'Difficulty'), h('dd', null, capitalise(d.difficulty))),
      h('div', null, h('dt', null, 'Est. time'), h('dd', null, `${d.estimate_minutes} min`))));
  return { el, hypotheses, playbook };
}
