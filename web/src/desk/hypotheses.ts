// Plausible hypotheses: the learner marks the one they believe (kept in this
// browser, per dossier, and sent to the workspace so that the instructor sees
// the picks), and the right one is revealed only once the API's progress
// carries the answer, that is after a passing submission.
import { h, panel, replace } from '../lib/dom';
import type { Answer, Hypothesis } from '../lib/types';

const storageKey = (markKey: string) => `racecase.hypothesis.${markKey}`;

function loadMark(markKey: string): string | null {
  try {
    return localStorage.getItem(storageKey(markKey));
  } catch {
    return null;
  }
}

function saveMark(markKey: string, id: string): void {
  try {
    localStorage.setItem(storageKey(markKey), id);
  } catch {
    // Storage may be disabled; the mark then lasts for this page only.
  }
}

export interface HypothesesPanel {
  el: HTMLElement;
  /** Shows the answer once the API reveals it. */
  reveal(answer: Answer | undefined): void;
  /** The hypothesis marked, or null. */
  marked(): string | null;
  /** Marks a hypothesis the workspace recorded (without calling onMark). */
  restore(id: string): void;
}

/** The hypotheses panel for one workspace; onMark hears each new mark. */
export function hypothesesPanel(hypotheses: Hypothesis[], markKey: string, onMark: (id: string) => void = () => {}): HypothesesPanel {
  let marked = loadMark(markKey);
  let answer: Answer | undefined;
  const verdict = h('div', { class: 'reveal', role: 'status', 'aria-live': 'polite' });
  const list = h('div', { class: 'hypotheses', role: 'radiogroup', 'aria-label': 'Which hypothesis do you believe?' });

  const render = () => {
    replace(list, hypotheses.map((hy) => {
      const id = `hyp-${hy.id}`;
      const isAnswer = answer?.hypothesis_id === hy.id;
      const cls = ['hypothesis', marked === hy.id ? 'marked' : '', isAnswer ? 'correct' : '', answer && !isAnswer ? 'ruled-out' : '']
        .filter(Boolean).join(' ');
      const input = h('input', { type: 'radio', name: `hypothesis-${markKey}`, id, value: hy.id, 'data-hypothesis': hy.id });
      input.checked = marked === hy.id;
      input.addEventListener('change', () => {
        marked = hy.id;
        saveMark(markKey, hy.id);
        onMark(hy.id);
        render();
      });
      return h('label', { class: cls, for: id, 'data-hypothesis': hy.id },
        input,
        h('span', { class: 'hyp-text' },
          h('span', { class: 'hyp-title' }, hy.title, isAnswer ? h('span', { class: 'badge ok' }, 'Root cause') : null),
          h('span', { class: 'hyp-why' }, hy.rationale)));
    }));
    if (!answer) {
      replace(verdict, h('p', { class: 'muted small' },
        marked ? 'Your pick is saved. The root cause is revealed after a passing submission.'
          : 'Mark the hypothesis you believe. The root cause is revealed after a passing submission.'));
      return;
    }
    const right = marked === answer.hypothesis_id;
    replace(verdict,
      h('p', { class: `reveal-head ${right ? 'ok' : 'warn'}` },
        marked ? (right ? 'You called it: ' : 'Not the one you marked. The root cause: ') : 'The root cause: ',
        h('strong', null, answer.hypothesis_title)),
      h('p', { class: 'reveal-explanation' }, answer.explanation));
  };
  render();
  const el = panel('Plausible hypotheses', h('div', null, list, verdict), { id: 'hypotheses' });
  return {
    el,
    reveal(a) {
      if (a?.hypothesis_id === answer?.hypothesis_id) return;
      answer = a;
      render();
    },
    marked: () => marked,
    restore(id) {
      if (id === marked) return;
      marked = id;
      saveMark(markKey, id);
      render();
    },
  };
}
