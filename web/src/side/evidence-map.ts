// The Evidence Map: which API each part of the page came from, and whether
// it has loaded. The page reports each load; nothing here is invented.
import { h, panel, replace } from '../lib/dom';

export type Source = 'signal' | 'files' | 'progress' | 'hints' | 'results';
type State = 'pending' | 'loaded' | 'error';

const rows: { key: Source; text: string; route: string }[] = [
  { key: 'signal', text: 'Failing signal loaded from challenge API', route: 'GET /api/dossiers/{slug}' },
  { key: 'files', text: 'Workspace files loaded from workspace API', route: 'GET /api/workspaces/{id}/files/{path}' },
  { key: 'progress', text: 'Progress and timer from workspace API', route: 'GET /api/workspaces/{id}/progress' },
  { key: 'hints', text: 'Hints revealed by workspace API on request', route: 'POST /api/workspaces/{id}/hints' },
  { key: 'results', text: 'Results rendered only after API run/submit', route: 'POST /api/workspaces/{id}/runs · SSE /api/runs/{id}/events' },
];

const stateLabel: Record<State, string> = { pending: 'waiting', loaded: 'loaded', error: 'failed' };

export interface EvidenceMap {
  el: HTMLElement;
  set(key: Source, state: State): void;
}

/** Creates the Evidence Map panel. */
export function evidenceMap(): EvidenceMap {
  const states = new Map<Source, State>(rows.map((r) => [r.key, 'pending']));
  const list = h('ul', { class: 'evidence-map' });
  const render = () => replace(list, rows.map((r) => {
    const st = states.get(r.key)!;
    return h('li', { class: `em-row ${st}`, 'data-source': r.key },
      h('span', { class: 'em-dot', 'aria-hidden': 'true' }),
      h('span', { class: 'em-text' }, r.text, h('code', null, r.route)),
      h('span', { class: 'em-state' }, stateLabel[st]));
  }));
  render();
  return {
    el: panel('Evidence Map', list, { id: 'evidence-map' }),
    set(key, state) {
      if (states.get(key) === state) return;
      states.set(key, state);
      render();
    },
  };
}
