// "My changes": a side-by-side merge view of a file against the dossier's
// original, rebuilt from the diff endpoint's patch. It also compares the
// learner's version with the server's when a save conflicts.
import { MergeView } from '@codemirror/merge';
import { api, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import { originalOf } from '../lib/patch';
import { viewerExtensions } from './editor-setup';

export class ChangesView {
  readonly el: HTMLElement;
  private body: HTMLElement;
  private title: HTMLElement;
  private picker: HTMLElement;
  private merge: MergeView | null = null;

  constructor(private readonly workspaceID: string, private readonly content: (path: string) => string, private readonly onClose: () => void) {
    this.title = h('h2', { id: 'changes-title' }, 'My changes');
    this.picker = h('div', { class: 'changes-files', role: 'list' });
    this.body = h('div', { class: 'changes-body' });
    this.el = h('section', { class: 'changes-view', hidden: true, 'aria-labelledby': 'changes-title' },
      h('header', { class: 'changes-head' }, this.title, this.picker,
        h('button', { type: 'button', class: 'btn small secondary', onclick: () => this.close() }, 'Back to editor')),
      this.body);
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  close(): void {
    this.merge?.destroy();
    this.merge = null;
    this.el.hidden = true;
    this.onClose();
  }

  /** Shows the learner's changes, on `preferred` when it is one of them. */
  async showChanges(preferred: string | null): Promise<void> {
    this.el.hidden = false;
    this.title.textContent = 'My changes';
    replace(this.body, h('p', { class: 'muted pad' }, 'Loading changes…'));
    replace(this.picker);
    try {
      const diff = await api.diff(this.workspaceID);
      if (diff.files.length === 0) {
        replace(this.body, h('p', { class: 'empty pad' }, "No changes yet: every file matches the dossier's original."));
        return;
      }
      const pick = async (path: string) => {
        for (const b of this.picker.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.path === path));
        const current = (await api.readFile(this.workspaceID, path)).content;
        this.render(path, originalOf(diff.patch, path, current), current, 'Original', 'Saved in your workspace');
      };
      replace(this.picker, diff.files.map((p) => h('button', {
        type: 'button', class: 'chip', 'data-path': p, 'aria-pressed': 'false', onclick: () => void pick(p),
      }, p)));
      await pick(preferred && diff.files.includes(preferred) ? preferred : diff.files[0]);
    } catch (err) {
      const e = describeError(err);
      replace(this.body, h('p', { class: 'error-text pad', role: 'alert' }, `${e.title}: ${e.detail}`));
    }
  }

  /** Compares the learner's unsaved content with the server's newer version. */
  showConflict(path: string, theirs: string): void {
    this.el.hidden = false;
    this.title.textContent = `Compare ${path}`;
    replace(this.picker);
    this.render(path, theirs, this.content(path), "Server's version", 'Your version');
  }

  private render(path: string, a: string, b: string, aLabel: string, bLabel: string): void {
    this.merge?.destroy();
    const host = h('div', { class: 'merge-host' });
    replace(this.body,
      h('div', { class: 'merge-labels', 'aria-hidden': 'true' }, h('span', null, aLabel), h('span', null, bLabel)),
      host);
    this.merge = new MergeView({
      a: { doc: a, extensions: viewerExtensions(path) },
      b: { doc: b, extensions: viewerExtensions(path) },
      parent: host,
      collapseUnchanged: { margin: 3, minSize: 6 },
      gutter: true,
    });
    this.merge.a.contentDOM.setAttribute('aria-label', `${aLabel} of ${path}`);
    this.merge.b.contentDOM.setAttribute('aria-label', `${bLabel}: ${path}`);
  }
}
