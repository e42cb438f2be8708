// Page-wide keyboard shortcuts and Focus Mode.

/**
 * Binds Ctrl/Cmd-S (save) and Ctrl/Cmd-Enter (run checks) outside the
 * editor, and Escape to leave Focus Mode; returns the unbinding.
 */
export function bindKeys(actions: { save(): void; run(): void; leaveFocus(): void }): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !e.defaultPrevented && document.body.classList.contains('focus-mode')) {
      actions.leaveFocus();
      return;
    }
    if (e.defaultPrevented || !(e.ctrlKey || e.metaKey) || e.altKey) return;
    if (e.key === 's' || e.key === 'S') {
      e.preventDefault();
      actions.save();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      actions.run();
    }
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}

/**
 * Toggles Focus Mode: everything but the focus question, the start files and
 * the editor is hidden. Every Focus Mode button reflects the state.
 */
export function toggleFocusMode(root: HTMLElement): void {
  const on = !document.body.classList.contains('focus-mode');
  document.body.classList.toggle('focus-mode', on);
  for (const b of root.querySelectorAll<HTMLButtonElement>('.focus-toggle')) {
    b.setAttribute('aria-pressed', String(on));
    b.textContent = on ? 'Exit Focus Mode (Esc)' : b.closest('.topbar') ? 'Focus Mode' : 'Enter Focus Mode';
  }
  if (on) document.getElementById('focus')?.scrollIntoView({ block: 'start' });
}
