// The output panel: a read-only console that logs what the workspace and
// the runs do, and a results tab with the per-test results of the latest
// run. The panel can be enlarged to read a long timeline; the page decides
// how large that is.
import { h, replace } from '../lib/dom';

type Tab = 'console' | 'results';

export class OutputPanel {
  readonly el: HTMLElement;
  private log: HTMLElement;
  private consolePanel: HTMLElement;
  private results: HTMLElement;
  private status: HTMLElement;
  private tabButtons: Record<Tab, HTMLButtonElement>;
  private resultsCount: HTMLElement;
  private expand: HTMLButtonElement;
  /** Told when the learner enlarges (true) or shrinks (false) the panel. */
  onExpand?: (on: boolean) => void;

  constructor() {
    this.log = h('pre', { class: 'console', role: 'log', 'aria-live': 'polite', 'aria-label': 'Output (read-only)', tabindex: 0 });
    this.consolePanel = h('div', { class: 'console-host', id: 'out-panel-console', role: 'tabpanel', 'aria-labelledby': 'out-tab-console' }, this.log);
    this.results = h('div', { class: 'results-host', id: 'out-panel-results', hidden: true, role: 'tabpanel', 'aria-labelledby': 'out-tab-results', tabindex: 0 },
      h('p', { class: 'muted pad' }, 'Results appear here after Run checks or Submit fix. They come only from the run API.'));
    this.status = h('span', { class: 'out-status idle', 'data-status': 'ready' }, 'ready');
    this.resultsCount = h('span', { class: 'tab-count' });
    const tab = (key: Tab, label: string, extra?: HTMLElement) => h('button', {
      type: 'button', role: 'tab', class: 'out-tab', id: `out-tab-${key}`, 'aria-selected': 'false', 'aria-controls': `out-panel-${key}`,
      onclick: () => this.show(key),
      onkeydown: (e: KeyboardEvent) => {
        if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
        const next: Tab = key === 'console' ? 'results' : 'console';
        this.show(next);
        this.tabButtons[next].focus();
      },
    }, label, extra ?? null);
    this.tabButtons = { console: tab('console', 'Output'), results: tab('results', 'Results', this.resultsCount) };
    this.expand = h('button', {
      type: 'button', class: 'btn small ghost', 'aria-pressed': 'false', title: 'Enlarge the output panel',
      onclick: () => this.toggleExpand(),
    }, 'Expand');
    this.el = h('section', { class: 'output', id: 'output', 'aria-label': 'Output and results' },
      h('header', { class: 'out-head' },
        h('div', { class: 'out-tabs', role: 'tablist', 'aria-label': 'Output panel' }, this.tabButtons.console, this.tabButtons.results),
        h('span', { class: 'badge ro' }, 'read-only'),
        this.status,
        h('span', { class: 'spacer' }),
        this.expand),
      h('div', { class: 'out-body' }, this.consolePanel, this.results));
    this.show('console');
  }

  /** Switches between the console and the results. */
  show(tab: Tab): void {
    for (const [k, b] of Object.entries(this.tabButtons)) {
      b.setAttribute('aria-selected', String(k === tab));
      b.tabIndex = k === tab ? 0 : -1;
    }
    this.consolePanel.hidden = tab !== 'console';
    this.results.hidden = tab !== 'results';
  }

  private toggleExpand(): void {
    const on = this.expand.getAttribute('aria-pressed') !== 'true';
    this.setExpanded(on);
    this.onExpand?.(on);
  }

  /** Shows whether the panel is enlarged; the page sizes it. */
  setExpanded(on: boolean): void {
    this.el.classList.toggle('expanded', on);
    this.expand.setAttribute('aria-pressed', String(on));
    this.expand.textContent = on ? 'Shrink' : 'Expand';
  }

  /** Appends a line to the console. */
  line(text: string, cls = ''): void {
    this.log.append(h('span', { class: `ln ${cls}`.trim() }, text), '\n');
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** Appends a block of run output. */
  block(text: string): void {
    if (!text) return;
    this.log.append(h('span', { class: 'ln run-output' }, text.replace(/\n+$/, '')), '\n');
    this.log.scrollTop = this.log.scrollHeight;
  }

  /** Sets the short status next to the title: ready, queued, running, passed… */
  setStatus(text: string, kind: 'idle' | 'busy' | 'ok' | 'bad'): void {
    this.status.textContent = text;
    this.status.className = `out-status ${kind}`;
    this.status.dataset.status = text;
  }

  /** Shows a run's results and switches to them. */
  setResults(view: HTMLElement, count: string): void {
    replace(this.results, view);
    this.resultsCount.textContent = count;
    this.show('results');
  }
}
