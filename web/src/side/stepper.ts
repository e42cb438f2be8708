// The progress stepper: 1 Reproduce the bug · 2 Edit the fix · 3 Pass checks
// · 4 Submit fix, drawn from the API's progress. The current step offers its
// action; later ones are "Open", finished ones "Done".
import { h, replace } from '../lib/dom';
import type { Progress } from '../lib/types';

export interface StepActions {
  check(): void;
  edit(): void;
  submit(): void;
}

const fallbackTitles = ['Reproduce the bug', 'Edit the fix', 'Pass checks', 'Submit fix'];

/** What the current step asks the learner to do, and the action it takes. */
function actionFor(key: string, a: StepActions): [string, () => void] {
  switch (key) {
    case 'reproduced': return ['Run checks', a.check];
    case 'edited': return ['Edit a file', a.edit];
    case 'checks-passed': return ['Run checks', a.check];
    default: return ['Submit fix', a.submit];
  }
}

export interface Stepper {
  el: HTMLElement;
  update(p: Progress | null): void;
}

/** Creates the stepper; update() redraws it from a progress answer. */
export function stepper(actions: StepActions): Stepper {
  const el = h('nav', { class: 'stepper', 'aria-label': 'Progress' });
  const list = h('ol', null);
  el.append(list);
  const update = (p: Progress | null) => {
    const steps = p?.steps ?? fallbackTitles.map((title, i) => ({ number: i + 1, key: ['reproduced', 'edited', 'checks-passed', 'submitted'][i], title, done: false }));
    const current = p ? p.current : 1;
    replace(list, steps.map((st) => {
      const state = st.done ? 'done' : st.number === current ? 'current' : 'open';
      let status: HTMLElement;
      if (state === 'done') status = h('span', { class: 'step-status' }, 'Done');
      else if (state === 'current') {
        const [label, run] = actionFor(st.key, actions);
        status = h('button', { type: 'button', class: 'step-action', onclick: run }, label);
      } else status = h('span', { class: 'step-status' }, 'Open');
      return h('li', { class: `step ${state}`, 'data-step': st.key, 'aria-current': state === 'current' ? 'step' : null },
        h('span', { class: 'step-n', 'aria-hidden': 'true' }, st.done ? '✓' : String(st.number)),
        h('span', { class: 'step-body' },
          h('span', { class: 'step-title' }, st.title, h('span', { class: 'sr-only' }, `: ${state === 'done' ? 'done' : state === 'current' ? 'current step' : 'not started'}`)),
          status));
    }));
  };
  update(null);
  return { el, update };
}
