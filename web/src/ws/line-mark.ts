// A highlighted line in the editor: the line of the learner's code that
// made the traced call they are pointing at. It lasts until another line is
// marked, the mark is cleared, or the file is edited (the line moves).
import { StateEffect, StateField, type EditorState } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';

/** Marks a line (from 1), or clears the mark with null. */
export const setLineMark = StateEffect.define<number | null>();

const marked = Decoration.line({ class: 'cm-trace-line', attributes: { 'data-trace-line': 'true' } });

/** The marked line, as a decoration. */
const markField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(deco, tr) {
    let next = tr.docChanged ? Decoration.none : deco;
    for (const e of tr.effects) {
      if (!e.is(setLineMark)) continue;
      next = e.value === null || e.value < 1 || e.value > tr.state.doc.lines
        ? Decoration.none
        : Decoration.set([marked.range(tr.state.doc.line(e.value).from)]);
    }
    return next;
  },
  provide: (f) => EditorView.decorations.from(f),
});

/** Whether a line of the state is marked. */
export function hasLineMark(state: EditorState): boolean {
  return (state.field(markField, false)?.size ?? 0) > 0;
}

/** The field holding the marked line, and its look. */
export const lineMark = [
  markField,
  EditorView.baseTheme({
    // Above the active line's tint, and light enough to keep every token's contrast.
    '.cm-line.cm-trace-line': { backgroundColor: '#fffbeb', boxShadow: 'inset 4px 0 0 #d97706' },
  }),
];

/** The offset of a line and column (both from 1) in a document, kept inside it. */
export function offsetOf(state: EditorState, line: number, column = 1): number {
  const l = state.doc.line(Math.min(Math.max(1, line), state.doc.lines));
  return Math.min(l.from + Math.max(0, column - 1), l.to);
}
