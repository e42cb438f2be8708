// The code editor: one CodeMirror view whose state is swapped per open file,
// so each tab keeps its own undo history, selection and scroll position. It
// can put the cursor on a given line and column, and highlight one line (the
// code a traced call came from).
import { Annotation, EditorState, Prec, type Extension, type StateEffect, type TransactionSpec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { editorExtensions } from './editor-setup';
import { hasLineMark, lineMark, offsetOf, setLineMark } from './line-mark';

/** How long after focus arrives from the keyboard Tab still moves on. */
const KEYBOARD_ENTRY_MS = 60_000;

/** Marks changes the app makes itself (server content, resets): not edits. */
const external = Annotation.define<boolean>();

export interface EditorHooks {
  /** The learner changed the file's content. */
  edited(path: string): void;
  /** Ctrl/Cmd-S. */
  save(): void;
  /** Ctrl/Cmd-Enter. */
  run(): void;
}

export class Editor {
  readonly view: EditorView;
  private states = new Map<string, EditorState>();
  private readonlyPaths = new Set<string>();
  private scrolls = new Map<string, number>();
  private shortcuts: Extension;
  /** The file whose line is highlighted, and the line. */
  private mark: { path: string; line: number } | null = null;
  /** The pending restore of a file's scroll position after switching to it. */
  private restoring = 0;
  active: string | null = null;

  constructor(parent: HTMLElement, private readonly hooks: EditorHooks) {
    this.shortcuts = Prec.highest(keymap.of([
      { key: 'Mod-s', preventDefault: true, run: () => { hooks.save(); return true; } },
      { key: 'Mod-Enter', preventDefault: true, run: () => { hooks.run(); return true; } },
    ]));
    this.view = new EditorView({ parent, state: EditorState.create({ doc: '', extensions: [EditorState.readOnly.of(true)] }) });
    this.passTabOnKeyboardEntry();
  }

  /**
   * Tab indents inside the editor, so a learner walking the page with Tab
   * would be caught in it. When focus arrives from the keyboard, the next Tab
   * moves on instead, until any other key is pressed; Escape then Tab leaves
   * at any time (CodeMirror's own convention).
   */
  private passTabOnKeyboardEntry(): void {
    let pointer = false;
    this.view.dom.addEventListener('pointerdown', () => { pointer = true; });
    this.view.contentDOM.addEventListener('focus', () => {
      if (!pointer) this.view.setTabFocusMode(KEYBOARD_ENTRY_MS);
      pointer = false;
    });
  }

  private create(path: string, content: string, readonly: boolean): EditorState {
    const listener = EditorView.updateListener.of((u) => {
      if (u.docChanged && !u.transactions.some((tr) => tr.annotation(external))) this.hooks.edited(path);
    });
    return EditorState.create({ doc: content, extensions: [editorExtensions(path, readonly, this.shortcuts, listener), lineMark] });
  }

  /** Applies a transaction to an open file, shown or not. */
  private update(path: string, spec: TransactionSpec): void {
    if (path === this.active) this.view.dispatch(spec);
    else {
      const st = this.states.get(path);
      if (st) this.states.set(path, st.update(spec).state);
    }
  }

  /**
   * Puts the cursor of the active file at a line and column (from 1),
   * scrolls it to the middle of the view and focuses the editor.
   */
  reveal(line: number, column = 1): void {
    if (!this.active) return;
    const at = offsetOf(this.view.state, line, column);
    cancelAnimationFrame(this.restoring);
    this.view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
    this.view.focus();
  }

  /**
   * Highlights a line (from 1) of an open file, scrolling it into view when
   * the file is shown; null clears the highlight.
   */
  markLine(path: string | null, line = 0): void {
    const state = path === this.active ? this.view.state : path ? this.states.get(path) : undefined;
    if (this.mark?.path === path && this.mark.line === line && state && hasLineMark(state)) return;
    if (this.mark && (this.mark.path !== path || this.mark.line !== line) && this.states.has(this.mark.path)) {
      this.update(this.mark.path, { effects: setLineMark.of(null) });
    }
    this.mark = null;
    if (!path || !this.states.has(path)) return;
    this.mark = { path, line };
    const effects: StateEffect<unknown>[] = [setLineMark.of(line)];
    if (path === this.active) {
      cancelAnimationFrame(this.restoring);
      effects.push(EditorView.scrollIntoView(offsetOf(this.view.state, line), { y: 'nearest' }));
    }
    this.update(path, { effects });
  }

  isOpen(path: string): boolean {
    return this.states.has(path);
  }

  /** Opens a file (or returns to it) and makes it the active one. */
  open(path: string, content: string, readonly: boolean): void {
    if (!this.states.has(path)) {
      this.states.set(path, this.create(path, content, readonly));
      if (readonly) this.readonlyPaths.add(path);
    }
    this.activate(path);
  }

  /** Shows an open file in the view. */
  activate(path: string): void {
    const next = this.states.get(path);
    if (!next || this.active === path) return;
    if (this.active) {
      this.states.set(this.active, this.view.state);
      this.scrolls.set(this.active, this.view.scrollDOM.scrollTop);
    }
    this.active = path;
    this.view.setState(next);
    const top = this.scrolls.get(path) ?? 0;
    this.restoring = requestAnimationFrame(() => { this.view.scrollDOM.scrollTop = top; });
  }

  /** Closes a file; the view goes empty when it was the last one. */
  close(path: string): void {
    if (this.active === path) {
      this.active = null;
      this.view.setState(EditorState.create({ doc: '', extensions: [EditorState.readOnly.of(true)] }));
    }
    this.states.delete(path);
    this.scrolls.delete(path);
    this.readonlyPaths.delete(path);
  }

  /** The current content of an open file. */
  content(path: string): string {
    if (path === this.active) return this.view.state.doc.toString();
    return this.states.get(path)?.doc.toString() ?? '';
  }

  /** Replaces a file's content without counting it as an edit. */
  replace(path: string, content: string): void {
    if (path === this.active) {
      if (this.view.state.doc.toString() === content) return;
      this.view.dispatch({
        changes: { from: 0, to: this.view.state.doc.length, insert: content },
        annotations: external.of(true),
      });
      return;
    }
    if (this.states.has(path)) this.states.set(path, this.create(path, content, this.readonlyPaths.has(path)));
  }

  focus(): void {
    this.view.focus();
  }
}
