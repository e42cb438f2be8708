// The file explorer: the workspace's files as a folder tree, with start files
// and likely-area files marked, changed files dotted and read-only files
// locked.
import { h, replace } from '../lib/dom';
import type { FileInfo } from '../lib/types';

interface Folder {
  name: string;
  path: string;
  folders: Map<string, Folder>;
  files: FileInfo[];
}

/** Builds the folder tree of a file list. */
function tree(files: FileInfo[]): Folder {
  const root: Folder = { name: '', path: '', folders: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      const path = dir.path ? `${dir.path}/${part}` : part;
      if (!dir.folders.has(part)) dir.folders.set(part, { name: part, path, folders: new Map(), files: [] });
      dir = dir.folders.get(part)!;
    }
    dir.files.push(f);
  }
  return root;
}

export interface ExplorerOptions {
  startFiles: string[];
  likelyArea: string[];
  open(path: string): void;
}

export class Explorer {
  readonly el: HTMLElement;
  private body: HTMLElement;
  private files: FileInfo[] = [];
  private active: string | null = null;
  private collapsed = new Set<string>();

  constructor(private readonly opts: ExplorerOptions) {
    this.body = h('div', { class: 'tree-body' }, h('p', { class: 'muted small pad' }, 'Loading files'));
    this.el = h('nav', { class: 'explorer', 'aria-label': 'Explorer' },
      h('header', { class: 'pane-head' }, h('h2', null, 'Explorer'),
        h('span', { class: 'legend', 'aria-hidden': 'true' },
          h('span', { class: 'mark start' }, 'S'), ' start ', h('span', { class: 'mark likely' }, 'L'), ' likely')),
      this.body);
  }

  /** Redraws the tree from the workspace's file list. */
  setFiles(files: FileInfo[]): void {
    this.files = files;
    this.render();
  }

  /** Updates one file's flags (after a save or reset). */
  updateFile(path: string, changed: boolean): void {
    const f = this.files.find((x) => x.path === path);
    if (f && f.changed !== changed) {
      f.changed = changed;
      this.render();
    }
  }

  setActive(path: string | null): void {
    this.active = path;
    for (const b of this.body.querySelectorAll<HTMLButtonElement>('button[data-path]')) {
      const on = b.dataset.path === path;
      b.classList.toggle('active', on);
      if (on) b.setAttribute('aria-current', 'true');
      else b.removeAttribute('aria-current');
    }
  }

  private render(): void {
    replace(this.body, this.folder(tree(this.files), 0));
    this.setActive(this.active);
  }

  private folder(dir: Folder, depth: number): HTMLElement {
    const folders = [...dir.folders.values()].sort((a, b) => a.name.localeCompare(b.name));
    const files = [...dir.files].sort((a, b) => a.path.localeCompare(b.path));
    return h('ul', { class: 'tree', role: depth === 0 ? 'list' : null },
      folders.map((f) => {
        const open = !this.collapsed.has(f.path);
        return h('li', { class: 'tree-folder' },
          h('button', {
            type: 'button', class: 'tree-row folder', style: `--depth:${depth}`, 'aria-expanded': String(open),
            onclick: () => { if (open) this.collapsed.add(f.path); else this.collapsed.delete(f.path); this.render(); },
          }, h('span', { class: 'chev', 'aria-hidden': 'true' }, open ? '▾' : '▸'), f.name),
          open ? this.folder(f, depth + 1) : null);
      }),
      files.map((f) => this.fileRow(f, depth)));
  }

  private fileRow(f: FileInfo, depth: number): HTMLElement {
    const start = this.opts.startFiles.includes(f.path);
    const likely = this.opts.likelyArea.includes(f.path);
    const name = f.path.split('/').pop()!;
    const notes = [start && 'start file', likely && 'likely area', f.changed && 'changed', f.readonly && 'read-only'].filter(Boolean).join(', ');
    return h('li', null, h('button', {
      type: 'button', class: `tree-row file${f.changed ? ' changed' : ''}`, style: `--depth:${depth}`, 'data-path': f.path,
      title: notes ? `${f.path} (${notes})` : f.path, 'aria-label': notes ? `${f.path}, ${notes}` : f.path,
      onclick: () => this.opts.open(f.path),
    },
    h('span', { class: 'file-name' }, name),
    h('span', { class: 'marks', 'aria-hidden': 'true' },
      f.readonly ? h('span', { class: 'mark ro', title: 'read-only' }, '🔒') : null,
      start ? h('span', { class: 'mark start', title: 'start file' }, 'S') : null,
      likely ? h('span', { class: 'mark likely', title: 'likely area' }, 'L') : null,
      h('span', { class: 'mark dot', title: f.changed ? 'changed' : '' }, f.changed ? '●' : ''))));
  }
}
