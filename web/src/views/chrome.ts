// Page chrome shared by the views: the brand link and the dossier top bar.
import { h } from '../lib/dom';
import { capitalise } from '../lib/format';
import type { Dossier } from '../lib/types';

/** The racecase brand, linking back to the catalog. */
export function brand(): HTMLElement {
  return h('a', { class: 'brand', href: '/', 'data-link': true, 'aria-label': 'racecase: back to the catalog' },
    h('span', { class: 'brand-mark', 'aria-hidden': 'true' }, h('span', null), h('span', null)),
    h('span', { class: 'brand-name' }, 'racecase'));
}

export interface TopBar {
  el: HTMLElement;
  setStatus(text: string, kind: 'busy' | 'ok' | 'idle' | 'bad'): void;
  focusButton: HTMLButtonElement;
}

/** The dossier page's top bar: title, topic, difficulty, workspace status, timer, Focus Mode. */
export function topBar(d: Dossier, timerEl: HTMLElement, toggleFocus: () => void): TopBar {
  const status = h('span', { class: 'chip status busy', role: 'status', id: 'ws-status' }, 'Preparing');
  const focusButton = h('button', { type: 'button', class: 'btn small ghost focus-toggle', 'aria-pressed': 'false', onclick: toggleFocus }, 'Focus Mode');
  const el = h('header', { class: 'topbar' },
    brand(),
    h('span', { class: 'crumb-sep', 'aria-hidden': 'true' }, '/'),
    h('h1', { class: 'top-title', title: d.title }, d.title),
    h('span', { class: 'top-chips' },
      h('span', { class: 'chip topic' }, d.topic),
      h('span', { class: `chip diff-${d.difficulty}` }, capitalise(d.difficulty)),
      status),
    h('span', { class: 'spacer' }),
    timerEl,
    focusButton);
  return {
    el,
    focusButton,
    setStatus(text, kind) {
      status.textContent = text;
      status.className = `chip status ${kind}`;
    },
  };
}
