// "Clone with git": the workspace as a git repository, for learners who work
// in their own editor. It shows the clone command (with the workspace's token
// in its URL), copies it, says how pushing runs the checks and submits, and
// rotates the token.
import { api, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import type { GitAccess } from '../lib/types';
import { confirmInline } from './notices';

export interface GitPanelHooks {
  /** A message for the output console. */
  say(line: string, cls?: string): void;
  /** The panel was shown (true) or hidden. */
  toggled(open: boolean): void;
}

export class GitPanel {
  readonly el: HTMLElement;
  private body = h('div', { class: 'git-body' });
  private confirmHost = h('div', { class: 'confirm-host', hidden: true });
  private loaded = false;

  constructor(private readonly wsID: string, private readonly hooks: GitPanelHooks) {
    this.el = h('section', { class: 'git-panel', id: 'git-panel', 'aria-label': 'Clone with git', hidden: true },
      this.confirmHost, this.body);
  }

  /** Shows or hides the panel, loading the access the first time. */
  async toggle(): Promise<void> {
    this.el.hidden = !this.el.hidden;
    this.hooks.toggled(!this.el.hidden);
    if (this.el.hidden || this.loaded) return;
    replace(this.body, h('p', { class: 'muted small' }, 'Loading the clone command…'));
    try {
      this.render(await api.gitAccess(this.wsID));
      this.loaded = true;
    } catch (err) {
      const e = describeError(err);
      replace(this.body, h('p', { class: 'ws-error', role: 'alert' }, `${e.title}: ${e.detail}`));
    }
  }

  private render(a: GitAccess): void {
    const command = h('input', { class: 'git-command', readonly: true, value: a.clone_command, 'aria-label': 'Clone command', spellcheck: 'false' });
    const copied = h('span', { class: 'git-copied muted small', role: 'status' });
    const copy = async () => {
      command.select();
      try {
        await navigator.clipboard.writeText(a.clone_command);
        copied.textContent = 'Copied.';
      } catch {
        copied.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
      }
    };
    replace(this.body,
      h('p', { class: 'git-lead' },
        h('strong', null, 'Work in your own editor. '),
        'Clone this workspace, commit, and push: ', h('code', null, 'git push'), ' runs the checks, ',
        h('code', null, 'git push origin HEAD:submit'), ' submits your fix to the hidden tests. ',
        'The push waits and prints the verdict; the run shows here too. Edits made here arrive with ', h('code', null, 'git pull'), '.'),
      h('div', { class: 'git-row' }, command,
        h('button', { type: 'button', class: 'btn small secondary', id: 'git-copy', onclick: () => void copy() }, 'Copy')),
      h('div', { class: 'git-row' },
        h('span', { class: 'muted small' }, 'The URL holds a token for this workspace only: keep it private. '), copied,
        h('span', { class: 'git-spacer' }),
        h('button', { type: 'button', class: 'btn small ghost', id: 'git-rotate', onclick: () => void this.rotate() }, 'Rotate token'),
        h('button', { type: 'button', class: 'btn small ghost', onclick: () => void this.toggle() }, 'Close')));
  }

  private async rotate(): Promise<void> {
    if (!(await confirmInline(this.confirmHost, 'Rotate the git token? Clones that use the old one stop working until you give them the new URL.', 'Rotate token'))) return;
    try {
      const a = await api.rotateGitToken(this.wsID);
      this.render(a);
      this.hooks.say(`New git token. Update an existing clone with: git remote set-url origin ${a.clone_url}`, 'ok');
    } catch (err) {
      const e = describeError(err);
      this.hooks.say(`${e.title}: ${e.detail}`, 'err');
    }
  }
}
