// Editor tabs: one per open file, each showing its save state, with a close
// button. They are a list of buttons (the shown file is the current one),
// not an ARIA tab list, which could not hold the close buttons.
import { h, replace, srOnly } from '../lib/dom';
import { basename } from '../lib/format';
import type { SaveState } from './autosave';

export interface TabHooks {
  activate(path: string): void;
  close(path: string): void;
  state(path: string): SaveState;
}

const stateNote: Record<SaveState, string> = {
  saved: '', dirty: 'unsaved changes', saving: 'saving', conflict: 'conflict', error: 'not saved',
};

export class Tabs {
  readonly el: HTMLElement;
  private paths: string[] = [];
  private active: string | null = null;

  constructor(private readonly hooks: TabHooks) {
    this.el = h('ul', { class: 'tabs', 'aria-label': 'Open files' });
  }

  list(): string[] {
    return [...this.paths];
  }

  add(path: string): void {
    if (!this.paths.includes(path)) this.paths.push(path);
    this.active = path;
    this.render();
  }

  remove(path: string): string | null {
    const i = this.paths.indexOf(path);
    if (i < 0) return this.active;
    this.paths.splice(i, 1);
    if (this.active === path) this.active = this.paths[Math.min(i, this.paths.length - 1)] ?? null;
    this.render();
    return this.active;
  }

  setActive(path: string | null): void {
    this.active = path;
    this.render();
  }

  /** Redraws the state markers. */
  render(): void {
    replace(this.el, this.paths.map((p) => {
      const st = this.hooks.state(p);
      const selected = p === this.active;
      return h('li', { class: `tab ${selected ? 'active' : ''} state-${st}`, 'data-path': p },
        h('button', {
          type: 'button', class: 'tab-main', 'aria-current': selected ? 'true' : null, title: p, onclick: () => this.hooks.activate(p),
        }, h('span', { class: 'tab-name' }, basename(p)), srOnly(`${p.includes('/') ? ` in ${p.slice(0, p.lastIndexOf('/'))}` : ''}${stateNote[st] ? `, ${stateNote[st]}` : ''}`),
        h('span', { class: 'tab-dot', 'aria-hidden': 'true' })),
        h('button', { type: 'button', class: 'tab-close', 'aria-label': `Close ${p}`, title: 'Close', onclick: () => this.hooks.close(p) }, '×'));
    }));
  }
}
