// The dossier's known wrong turns that a failed submission matches: each
// says what the wrong fix looks like (the part a learner recognises their
// fix in), and opens to why it fails and where to look instead. The API
// sends them only with a failed submission, never the fix.
import { h } from '../lib/dom';
import type { WrongTurn } from '../lib/types';

/** "the test", "the tests", for the list of failed tests a wrong turn explains. */
function testsLabel(n: number): string {
  return n === 1 ? 'Fails the test' : 'Fails the tests';
}

/** One wrong turn, closed on what it looks like. */
function wrongTurn(w: WrongTurn): HTMLElement {
  return h('li', null, h('details', { class: 'wrong-turn' },
    h('summary', null, w.looks_like),
    h('div', { class: 'wrong-turn-body' },
      h('p', null, h('strong', null, 'Why it fails: '), w.why_it_fails),
      h('p', null, h('strong', null, 'Look at: '), w.look_at),
      h('p', { class: 'wrong-turn-tests' }, `${testsLabel(w.tests.length)}: `, w.tests.map((t, i) => [i ? '; ' : '', h('q', null, t)])))));
}

/** The section listing the wrong turns of a run; runID keeps its heading's id unique. */
export function wrongTurnsView(turns: WrongTurn[], runID: string): HTMLElement {
  const heading = `wrong-turns-${runID}`;
  return h('section', { class: 'wrong-turns', 'aria-labelledby': heading },
    h('h2', { id: heading }, 'Known wrong turns'),
    h('p', { class: 'wrong-turns-intro' },
      `Fixes that look right and fail ${turns.length === 1 ? 'this way' : 'these ways'}. Does yours look like one? Open it to read why it fails and where to look.`),
    h('ul', null, turns.map(wrongTurn)));
}
