// The Challenge Coach: hints revealed one at a time, broad to narrow, each
// fetched from the API only when the learner asks for it.
import { api, describeError } from '../lib/api';
import { h, panel, replace } from '../lib/dom';
import type { HintView } from '../lib/types';

export interface Coach {
  el: HTMLElement;
  /** Binds the coach to the workspace once it is ready, with its hints. */
  set(workspaceID: string, hints: HintView[]): void;
}

/** Creates the coach panel; it stays disabled until set() names the workspace. */
export function coach(onLoaded: (ok: boolean) => void): Coach {
  let workspaceID: string | null = null;
  let hints: HintView[] = [];
  let busy = false;
  const list = h('ol', { class: 'hints', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'btn secondary', id: 'reveal-hint' }, 'Reveal next hint');
  const note = h('p', { class: 'coach-note', role: 'status' });
  const error = h('p', { class: 'error-text', role: 'alert' });

  const render = () => {
    const shown = hints.filter((x) => x.revealed).length;
    replace(list, hints.filter((x) => x.revealed).map((x) => h('li', { class: 'hint', 'data-hint': x.index },
      h('span', { class: 'hint-n', 'aria-hidden': 'true' }, String(x.index + 1)),
      h('div', null, h('h4', null, x.title), h('p', null, x.text ?? '')))));
    const next = hints.find((x) => !x.revealed);
    button.disabled = busy || !next || !workspaceID;
    button.textContent = !workspaceID ? 'Reveal next hint' : next ? `Reveal hint ${next.index + 1} of ${hints.length}` : 'All hints revealed';
    note.textContent = hints.length ? `${shown} of ${hints.length} hints revealed` : '';
  };

  button.addEventListener('click', async () => {
    if (!workspaceID) return;
    busy = true;
    error.textContent = '';
    render();
    try {
      const got = await api.revealHint(workspaceID);
      hints = hints.map((x) => (x.index === got.index ? got : x));
      onLoaded(true);
    } catch (err) {
      const e = describeError(err);
      error.textContent = `${e.title}: ${e.detail}`;
      onLoaded(false);
    } finally {
      busy = false;
      render();
    }
  });

  const el = panel('Challenge Coach', h('div', null,
    h('p', { class: 'muted' }, 'Hints reveal broad direction first, then narrow toward the suspect path without showing hidden tests or exact solution code.'),
    list, h('div', { class: 'coach-actions' }, button, note), error), { id: 'coach', cls: 'coach' });
  render();
  return {
    el,
    set(id, list) {
      workspaceID = id;
      hints = [...list].sort((a, b) => a.index - b.index);
      render();
    },
  };
}
