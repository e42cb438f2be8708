// The workspace pane: explorer, tabs, editor, the toolbar with the save
// state, "My changes", resets, "Clone with git", Run checks and Submit fix,
// and the conflict bar. Files are loaded from the workspace API when opened,
// and reloaded when they change elsewhere (a git push, another tab).
import { api, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import type { Dossier, FileInfo, RunKind, WorkspaceFile } from '../lib/types';
import { Autosaver } from './autosave';
import { ChangesView } from './changes-view';
import { Editor } from './editor';
import { Explorer } from './explorer';
import { GitPanel } from './git-panel';
import { conflictBar, confirmInline, savePill } from './notices';
import { splitter, type Splitter } from '../views/splitter';
import { Tabs } from './tabs';

export interface WorkspaceHooks {
  run(kind: RunKind): void;
  /** A file was loaded (true) or failed to load (false). */
  filesLoaded(ok: boolean): void;
  /** The server stored a change: progress may have moved. */
  stored(): void;
  /** A message for the output console. */
  say(line: string, cls?: string): void;
  /** The open tabs or the active file changed. */
  tabsChanged(open: string[], active: string | null): void;
}

export class WorkspacePane {
  readonly el: HTMLElement;
  private editor: Editor;
  private explorer: Explorer;
  private tabs: Tabs;
  private saver: Autosaver;
  private changes: ChangesView;
  private pill = savePill();
  private conflictHost = h('div', { class: 'conflict-host' });
  private confirmHost = h('div', { class: 'confirm-host', hidden: true });
  private errorHost = h('p', { class: 'ws-error', role: 'alert' });
  private git: GitPanel;
  private buttons: Record<'check' | 'submit' | 'changes' | 'resetFile' | 'resetAll' | 'git', HTMLButtonElement>;
  private files: FileInfo[];
  private running: RunKind | null = null;
  /** The splitter beside the explorer, for the page's pane toggles. */
  readonly explorerSplitter: Splitter;

  constructor(private readonly wsID: string, files: FileInfo[], d: Dossier, private readonly hooks: WorkspaceHooks) {
    this.files = files;
    const editorHost = h('div', { class: 'editor-host' });
    this.editor = new Editor(editorHost, {
      edited: (p) => this.saver.edited(p),
      save: () => void this.saveNow(),
      run: () => hooks.run('check'),
    });
    this.saver = new Autosaver(wsID, (p) => this.editor.content(p), (p) => this.stateChanged(p), (f) => {
      this.explorer.updateFile(f.path, f.changed);
      hooks.stored();
    });
    this.explorer = new Explorer({ startFiles: d.start_files, likelyArea: d.likely_area, open: (p) => void this.open(p) });
    this.explorer.setFiles(files);
    this.tabs = new Tabs({
      activate: (p) => this.activate(p),
      close: (p) => void this.close(p),
      state: (p) => this.saver.state(p),
    });
    this.changes = new ChangesView(wsID, (p) => this.editor.content(p), () => {
      this.el.classList.remove('showing-changes');
      this.buttons.changes.setAttribute('aria-pressed', 'false');
    });
    this.git = new GitPanel(wsID, { say: hooks.say, toggled: (open) => this.buttons.git.setAttribute('aria-expanded', String(open)) });
    const btn = (label: string, cls: string, onclick: () => void, extra: Record<string, string> = {}) =>
      h('button', { type: 'button', class: `btn ${cls}`, onclick, ...extra }, label);
    this.buttons = {
      changes: btn('My changes', 'ghost', () => void this.toggleChanges(), { 'aria-pressed': 'false', id: 'my-changes' }),
      resetFile: btn('Reset file', 'ghost', () => void this.resetFile(), { id: 'reset-file' }),
      resetAll: btn('Reset all', 'ghost', () => void this.resetAll(), { id: 'reset-all' }),
      git: btn('Clone with git', 'ghost', () => void this.git.toggle(), { id: 'clone-git', 'aria-expanded': 'false', 'aria-controls': 'git-panel' }),
      check: btn('Run checks', 'secondary', () => hooks.run('check'), { id: 'run-checks', 'aria-keyshortcuts': 'Control+Enter Meta+Enter', title: 'Run checks (Ctrl/Cmd+Enter)' }),
      submit: btn('Submit fix', 'primary', () => hooks.run('submit'), { id: 'submit-fix', title: 'Run the hidden concurrency tests' }),
    };
    const b = this.buttons;
    const wsBody = h('div', { class: 'ws-body' });
    this.explorerSplitter = splitter({
      label: 'Resize the explorer', between: 'columns', host: wsBody, cssVar: '--explorer-w', controls: 'explorer', pref: 'layout.explorer',
      initial: 210, min: 150, max: () => 420, grows: 'forward',
    });
    wsBody.append(this.explorer.el, this.explorerSplitter.el,
      h('div', { class: 'editor-col' },
        h('div', { class: 'tabs-row' }, this.tabs.el,
          h('p', { class: 'editor-keys', id: 'editor-keys' }, h('kbd', null, 'Esc'), ' then ', h('kbd', null, 'Tab'), ' leaves the editor')),
        this.conflictHost,
        h('div', { class: 'editor-stack' }, editorHost, this.changes.el)));
    this.el = h('section', { class: 'workspace', id: 'workspace', 'aria-label': 'Workspace' },
      h('div', { class: 'ws-toolbar' },
        h('div', { class: 'ws-tools-left' }, this.pill.el, b.changes, b.resetFile, b.resetAll),
        h('div', { class: 'ws-tools-right' }, b.git, b.check, b.submit)),
      this.git.el, this.confirmHost, this.errorHost,
      wsBody);
    this.updateButtons();
  }

  /** Opens a file in a tab, loading it from the API the first time. */
  async open(path: string): Promise<void> {
    if (this.changes.isOpen) this.changes.close();
    if (this.editor.isOpen(path)) {
      this.activate(path);
      return;
    }
    if (!this.files.some((f) => f.path === path)) {
      this.hooks.say(`There is no file ${path} in this workspace.`, 'warn');
      return;
    }
    try {
      const f = await api.readFile(this.wsID, path);
      if (!this.editor.isOpen(path)) {
        this.saver.accept(f);
        this.editor.open(path, f.content, f.readonly);
        this.tabs.add(path);
      }
      this.activate(path);
      this.hooks.filesLoaded(true);
    } catch (err) {
      this.hooks.filesLoaded(false);
      this.showError(err);
    }
  }

  private activate(path: string): void {
    this.editor.activate(path);
    this.tabs.setActive(path);
    this.explorer.setActive(path);
    this.renderConflict();
    this.updateButtons();
    this.hooks.tabsChanged(this.tabs.list(), path);
  }

  private async close(path: string): Promise<void> {
    if (!(await this.saver.save(path))) {
      this.activate(path);
      this.hooks.say(`${path} is not saved yet, so its tab stays open.`, 'warn');
      return;
    }
    this.editor.close(path);
    const next = this.tabs.remove(path);
    if (next) this.activate(next);
    else {
      this.explorer.setActive(null);
      this.renderConflict();
      this.updateButtons();
      this.hooks.tabsChanged([], null);
    }
  }

  /**
   * Opens a file at a line and column (from 1), highlights the line and
   * moves focus there: where a traced call was made.
   */
  async showLine(path: string, line: number, column?: number): Promise<void> {
    await this.open(path);
    if (this.editor.active !== path) return;
    this.editor.markLine(path, line);
    this.editor.reveal(line, column);
  }

  /** Highlights a line (from 1) of a file when it is open in the editor; null clears it. */
  markLine(path: string | null, line?: number): void {
    this.editor.markLine(path, line);
  }

  focusEditor(): void {
    if (!this.editor.active && this.files.length) void this.open(this.files[0].path);
    this.editor.focus();
  }

  /** Saves every open file; false when one could not be saved (a conflict). */
  async saveAll(): Promise<boolean> {
    const ok = await this.saver.flushAll();
    const conflicts = this.saver.conflicts();
    if (conflicts.length) this.hooks.say(`Resolve the conflict in ${conflicts.join(', ')} first: choose your version or the server's.`, 'warn');
    else if (!ok) this.hooks.say('Some changes could not be saved; see the editor for why.', 'warn');
    return ok && conflicts.length === 0;
  }

  private async saveNow(): Promise<void> {
    const p = this.editor.active;
    if (p) await this.saver.save(p);
  }

  /** Disables the run buttons while a run is in flight. */
  setRunning(kind: RunKind | null): void {
    this.running = kind;
    this.updateButtons();
  }

  private updateButtons(): void {
    const b = this.buttons;
    b.check.disabled = this.running !== null;
    b.submit.disabled = this.running !== null;
    b.check.textContent = this.running === 'check' ? 'Running checks…' : 'Run checks';
    b.submit.textContent = this.running === 'submit' ? 'Submitting…' : 'Submit fix';
    const active = this.editor.active;
    b.resetFile.disabled = !active || !!this.files.find((f) => f.path === active)?.readonly;
  }

  private stateChanged(path: string): void {
    this.tabs.render();
    const overall = this.saver.overall();
    this.pill.set(overall, overall === 'error' ? this.saver.error(path) : undefined);
    if (path === this.editor.active) this.renderConflict();
  }

  private renderConflict(): void {
    const p = this.editor.active;
    const theirs = p ? this.saver.conflict(p) : undefined;
    if (!p || !theirs) {
      replace(this.conflictHost);
      return;
    }
    replace(this.conflictHost, conflictBar(p, undefined, {
      keepMine: () => void this.saver.keepMine(p),
      takeTheirs: () => {
        const content = this.saver.takeTheirs(p);
        if (content !== undefined) this.editor.replace(p, content);
        if (this.changes.isOpen) this.changes.close();
      },
      compare: () => {
        this.el.classList.add('showing-changes');
        this.changes.showConflict(p, theirs.content);
      },
    }));
  }

  private async toggleChanges(): Promise<void> {
    if (this.changes.isOpen) {
      this.changes.close();
      return;
    }
    await this.saver.flushAll();
    this.el.classList.add('showing-changes');
    this.buttons.changes.setAttribute('aria-pressed', 'true');
    await this.changes.showChanges(this.editor.active);
  }

  private async resetFile(): Promise<void> {
    const p = this.editor.active;
    if (!p) return;
    if (!(await confirmInline(this.confirmHost, `Reset ${p} to the dossier's original? Your changes to this file are discarded.`, 'Reset file'))) return;
    await this.saver.idle(p);
    try {
      this.applyServerFile(await api.resetFile(this.wsID, p));
      this.hooks.say(`Reset ${p} to the original.`);
      this.hooks.stored();
    } catch (err) {
      this.showError(err);
    }
  }

  private async resetAll(): Promise<void> {
    if (!(await confirmInline(this.confirmHost, "Reset every file to the dossier's original? All your changes are discarded.", 'Reset all'))) return;
    for (const p of this.tabs.list()) await this.saver.idle(p);
    try {
      const infos = await api.resetAll(this.wsID);
      for (const p of this.tabs.list()) this.applyServerFile(await api.readFile(this.wsID, p));
      this.files = infos;
      this.explorer.setFiles(infos);
      this.hooks.say('Reset every file to the original.');
      this.hooks.stored();
    } catch (err) {
      this.showError(err);
    }
  }

  /**
   * Takes the server's file list after a change made elsewhere (a git push,
   * another tab): open files without unsaved edits are reloaded; a file with
   * unsaved edits meets the newer version as a conflict at its next save.
   */
  async syncFiles(infos: FileInfo[]): Promise<void> {
    this.files = infos;
    for (const info of infos) {
      this.explorer.updateFile(info.path, info.changed);
      const known = this.saver.version(info.path);
      if (known === undefined || known >= info.version || !this.saver.isClean(info.path)) continue;
      try {
        const f = await api.readFile(this.wsID, info.path);
        if (!this.saver.isClean(info.path) || (this.saver.version(info.path) ?? 0) >= f.version) continue;
        const same = this.editor.content(f.path) === f.content;
        this.applyServerFile(f);
        if (!same) this.hooks.say(`${f.path} changed elsewhere (a git push or another tab): now at version ${f.version}.`);
      } catch (err) {
        this.showError(err);
      }
    }
  }

  /** Puts a file the server changed (reset) into the editor and the autosaver. */
  private applyServerFile(f: WorkspaceFile): void {
    this.saver.accept(f);
    if (this.editor.isOpen(f.path)) this.editor.replace(f.path, f.content);
    this.explorer.updateFile(f.path, f.changed);
    if (this.changes.isOpen) this.changes.close();
  }

  private showError(err: unknown): void {
    const e = describeError(err);
    this.errorHost.textContent = `${e.title}: ${e.detail}`;
    window.setTimeout(() => { this.errorHost.textContent = ''; }, 8000);
  }

  /** Whether any edit is not yet on the server (for the page-leave warning). */
  hasUnsaved(): boolean {
    return this.saver.overall() !== 'saved';
  }
}
