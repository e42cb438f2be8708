// Small workspace notices: the save-state pill, the conflict bar shown when
// the server has a newer version of a file, and an inline confirmation for
// destructive actions (resets).
import { h, replace } from '../lib/dom';
import type { SaveState } from './autosave';

const pillText: Record<SaveState, string> = {
  saved: 'Autosaved', dirty: 'Unsaved changes', saving: 'Saving…', conflict: 'Conflict', error: 'Not saved',
};

/** The save indicator; its width is fixed so that typing never moves the toolbar. */
export function savePill(): { el: HTMLElement; set(state: SaveState, detail?: string): void } {
  const text = h('span', { class: 'save-text' }, 'Autosaved');
  const el = h('span', { class: 'save-pill saved', role: 'status', 'aria-live': 'polite', 'data-state': 'saved' },
    h('span', { class: 'save-dot', 'aria-hidden': 'true' }), text);
  return {
    el,
    set(state, detail) {
      el.className = `save-pill ${state}`;
      el.dataset.state = state;
      text.textContent = pillText[state];
      el.title = detail ?? '';
    },
  };
}

export interface ConflictChoice {
  keepMine(): void;
  takeTheirs(): void;
  compare(): void;
}

/** The conflict bar for the active file, or nothing. */
export function conflictBar(path: string, detail: string | undefined, choice: ConflictChoice): HTMLElement {
  return h('div', { class: 'conflict-bar', role: 'alert', 'data-path': path },
    h('div', { class: 'conflict-text' },
      h('strong', null, `${path} changed elsewhere.`),
      ' ', detail || 'Another tab or device saved a newer version. Your edits are kept here; choose which version to keep.'),
    h('div', { class: 'conflict-actions' },
      h('button', { type: 'button', class: 'btn small secondary', onclick: choice.compare }, 'Compare'),
      h('button', { type: 'button', class: 'btn small secondary', onclick: choice.takeTheirs }, "Use the server's version"),
      h('button', { type: 'button', class: 'btn small primary', onclick: choice.keepMine }, 'Keep my version')));
}

/**
 * Shows an inline confirmation in host and resolves to the learner's answer.
 * Escape or Cancel declines; Cancel has the focus.
 */
export function confirmInline(host: HTMLElement, question: string, action: string): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (yes: boolean) => {
      replace(host);
      host.hidden = true;
      back?.focus();
      resolve(yes);
    };
    const back = document.activeElement as HTMLElement | null;
    const cancel = h('button', { type: 'button', class: 'btn small secondary', onclick: () => done(false) }, 'Cancel');
    const box = h('div', { class: 'confirm', role: 'alertdialog', 'aria-label': question },
      h('p', null, question),
      h('div', { class: 'confirm-actions' },
        cancel, h('button', { type: 'button', class: 'btn small danger', onclick: () => done(true) }, action)));
    box.addEventListener('keydown', (e: KeyboardEvent) => { if (e.key === 'Escape') done(false); });
    replace(host, box);
    host.hidden = false;
    // The safe answer has the focus; the learner's place comes back after.
    cancel.focus();
  });
}
