// CodeMirror set-up shared by the editor and the "My changes" view: the
// extensions, the light theme and the JavaScript highlighting colours.
import { closeBrackets, closeBracketsKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import {
  bracketMatching, foldGutter, foldKeymap, HighlightStyle, indentOnInput, syntaxHighlighting,
} from '@codemirror/language';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, type Extension } from '@codemirror/state';
import {
  crosshairCursor, drawSelection, dropCursor, EditorView, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, keymap, lineNumbers, rectangularSelection,
} from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

/** Colours for JavaScript tokens, readable on the light editor background. */
const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.operatorKeyword], color: '#7c3aed' },
  { tag: [t.definitionKeyword, t.modifier], color: '#7c3aed' },
  { tag: [t.string, t.special(t.string), t.regexp], color: '#0f766e' },
  { tag: [t.number, t.bool, t.null, t.atom], color: '#b45309' },
  { tag: [t.comment, t.lineComment, t.blockComment], color: '#6b7280', fontStyle: 'italic' },
  { tag: t.docComment, color: '#6b7280', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName)], color: '#1d4ed8' },
  { tag: [t.definition(t.variableName), t.definition(t.propertyName)], color: '#0f172a', fontWeight: '600' },
  { tag: t.propertyName, color: '#0e7490' },
  { tag: [t.typeName, t.className], color: '#be185d' },
  { tag: [t.operator, t.punctuation, t.bracket], color: '#475569' },
  { tag: t.heading, color: '#1e3a8a', fontWeight: '700' },
  { tag: t.link, color: '#1d4ed8', textDecoration: 'underline' },
  { tag: t.invalid, color: '#dc2626' },
]);

/** The editor chrome: font, gutters, selection, matching the page. */
export const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px', backgroundColor: '#ffffff' },
  '.cm-scroller': { fontFamily: 'var(--mono)', lineHeight: '1.55' },
  '.cm-content': { padding: '8px 0' },
  '.cm-gutters': { backgroundColor: '#f8fafc', color: '#64748b', borderRight: '1px solid #e2e8f0' },
  '.cm-activeLineGutter': { backgroundColor: '#eef2ff', color: '#334155' },
  '.cm-activeLine': { backgroundColor: '#f5f7ff' },
  '&.cm-focused': { outline: '2px solid #2f5bea', outlineOffset: '-2px' },
  // Debian's fonts lack the merge view's own marker of collapsed lines.
  '.cm-collapsedLines:before': { content: '"↕"' },
  '.cm-collapsedLines:after': { content: 'none' },
  '&.cm-focused .cm-cursor': { borderLeftColor: '#1d4ed8', borderLeftWidth: '2px' },
  '.cm-selectionBackground': { backgroundColor: '#e2e8f0 !important' },
  '&.cm-focused .cm-selectionBackground': { backgroundColor: '#c7d2fe !important' },
  '.cm-matchingBracket': { backgroundColor: '#dbeafe', outline: '1px solid #93c5fd' },
  '.cm-foldPlaceholder': { backgroundColor: '#e2e8f0', border: 'none', color: '#475569' },
});

/** The language support for a file, by its extension. */
export function languageFor(path: string): Extension {
  if (/\.(m|c)?jsx?$/.test(path) || path.endsWith('.json')) return javascript({ jsx: path.endsWith('x') });
  if (/\.(m|c)?tsx?$/.test(path)) return javascript({ typescript: true, jsx: path.endsWith('x') });
  return [];
}

/** Prose files wrap their lines; code keeps them. */
function wrapsLines(path: string): boolean {
  return /\.(md|markdown|txt)$/i.test(path) || !path.includes('.');
}

/** Extensions for a read-only view of code (the "My changes" panes). */
export function viewerExtensions(path: string): Extension[] {
  return [
    lineNumbers(), highlightSpecialChars(), foldGutter(), drawSelection(),
    syntaxHighlighting(highlight), languageFor(path), theme,
    EditorState.readOnly.of(true), EditorView.editable.of(false),
  ];
}

/** Extensions for an editable file; shortcuts take precedence over defaults. */
export function editorExtensions(path: string, readonly: boolean, shortcuts: Extension, onUpdate: Extension): Extension[] {
  return [
    shortcuts,
    lineNumbers(), highlightActiveLineGutter(), highlightSpecialChars(), history(), foldGutter(),
    drawSelection(), dropCursor(), EditorState.allowMultipleSelections.of(true), indentOnInput(),
    syntaxHighlighting(highlight), bracketMatching(), closeBrackets(), rectangularSelection(), crosshairCursor(),
    highlightActiveLine(), highlightSelectionMatches(),
    keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, indentWithTab]),
    languageFor(path), theme, wrapsLines(path) ? EditorView.lineWrapping : [],
    EditorState.readOnly.of(readonly),
    EditorView.contentAttributes.of({ 'aria-label': `Editor: ${path}${readonly ? ' (read-only)' : ''}`, 'aria-describedby': 'editor-keys', tabindex: '0' }),
    onUpdate,
  ];
}
