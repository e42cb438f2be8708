// The file explorer: the workspace's files as one tree widget (a single tab
// stop; arrow keys move, expand and collapse, Enter opens), with start files
// and likely-area files marked, changed files dotted and read-only files
// locked.
import { h, replace, s, srOnly } from '../lib/dom';
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

/** A padlock drawn in SVG: Debian's fonts have no glyph for the emoji. */
function lockIcon(): SVGElement {
  return s('svg', { class: 'lock-icon', width: 10, height: 11, viewBox: '0 0 10 11', 'aria-hidden': 'true', focusable: 'false' },
    s('rect', { x: 1, y: 5, width: 8, height: 6, rx: 1.2 }),
    s('path', { d: 'M3 5V3.5a2 2 0 0 1 4 0V5', fill: 'none', 'stroke-width': 1.4 }));
}

export class Explorer {
  readonly el: HTMLElement;
  private body: HTMLElement;
  private files: FileInfo[] = [];
  private active: string | null = null;
  /** The tree item that has the tab stop: a file path or "dir:" + a folder path. */
  private cursor: string | null = null;
  private collapsed = new Set<string>();

  constructor(private readonly opts: ExplorerOptions) {
    this.body = h('div', { class: 'tree-body' }, h('p', { class: 'muted small pad' }, 'Loading files'));
    this.el = h('nav', { class: 'explorer', id: 'explorer', 'aria-label': 'Explorer' },
      h('header', { class: 'pane-head' }, h('h2', { id: 'explorer-title' }, 'Explorer'),
        h('span', { class: 'legend', 'aria-hidden': 'true' },
          h('span', { class: 'mark start' }, 'S'), ' start ', h('span', { class: 'mark likely' }, 'L'), ' likely')),
      this.body);
    this.body.addEventListener('keydown', (e) => this.onKey(e));
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
    if (path) this.cursor = path;
    for (const item of this.items()) {
      const on = item.dataset.path === path;
      item.classList.toggle('active', on);
      item.setAttribute('aria-selected', String(on));
    }
    this.placeTabStop();
  }

  /** The visible tree items, in order. */
  private items(): HTMLElement[] {
    return [...this.body.querySelectorAll<HTMLElement>('[role=treeitem]')].filter((el) => !el.closest('[role=group][hidden]'));
  }

  private id(item: HTMLElement): string {
    return item.dataset.path ?? `dir:${item.dataset.dir}`;
  }

  /** Exactly one item is in the tab order: the cursor, else the active file, else the first. */
  private placeTabStop(): void {
    const items = this.items();
    const stop = items.find((el) => this.id(el) === this.cursor) ?? items.find((el) => el.dataset.path === this.active) ?? items[0];
    for (const el of items) el.tabIndex = el === stop ? 0 : -1;
  }

  private focusItem(item: HTMLElement | undefined): void {
    if (!item) return;
    this.cursor = this.id(item);
    this.placeTabStop();
    item.focus();
  }

  private toggleFolder(dir: string, open: boolean): void {
    if (open) this.collapsed.delete(dir);
    else this.collapsed.add(dir);
    this.cursor = `dir:${dir}`;
    this.render();
    this.items().find((el) => el.dataset.dir === dir)?.focus();
  }

  private onKey(e: KeyboardEvent): void {
    const item = (e.target as HTMLElement).closest<HTMLElement>('[role=treeitem]');
    if (!item) return;
    const items = this.items();
    const i = items.indexOf(item);
    const dir = item.dataset.dir;
    const open = item.getAttribute('aria-expanded') === 'true';
    switch (e.key) {
      case 'ArrowDown': this.focusItem(items[i + 1]); break;
      case 'ArrowUp': this.focusItem(items[i - 1]); break;
      case 'Home': this.focusItem(items[0]); break;
      case 'End': this.focusItem(items[items.length - 1]); break;
      case 'ArrowRight':
        if (dir && !open) this.toggleFolder(dir, true);
        else if (dir) this.focusItem(items[i + 1]);
        break;
      case 'ArrowLeft':
        if (dir && open) this.toggleFolder(dir, false);
        else this.focusItem(item.parentElement?.closest<HTMLElement>('[role=treeitem]') ?? undefined);
        break;
      case 'Enter':
      case ' ':
        if (dir) this.toggleFolder(dir, !open);
        else if (item.dataset.path) this.opts.open(item.dataset.path);
        break;
      default: return;
    }
    e.preventDefault();
    e.stopPropagation();
  }

  private render(): void {
    replace(this.body, h('ul', { class: 'tree', role: 'tree', 'aria-labelledby': 'explorer-title' }, this.children(tree(this.files), 1)));
    this.setActive(this.active);
  }

  private children(dir: Folder, level: number): HTMLElement[] {
    const folders = [...dir.folders.values()].sort((a, b) => a.name.localeCompare(b.name));
    const files = [...dir.files].sort((a, b) => a.path.localeCompare(b.path));
    return [
      ...folders.map((f) => {
        const open = !this.collapsed.has(f.path);
        const item = h('li', { role: 'treeitem', class: 'tree-item folder', 'aria-expanded': String(open), 'aria-level': level, 'data-dir': f.path, tabindex: -1 },
          h('span', {
            class: 'tree-row folder', style: `--depth:${level - 1}`,
            onclick: (e: MouseEvent) => { e.stopPropagation(); this.toggleFolder(f.path, !open); },
          }, h('span', { class: 'chev', 'aria-hidden': 'true' }, open ? '▾' : '▸'), f.name),
          h('ul', { role: 'group', hidden: !open }, this.children(f, level + 1)));
        return item;
      }),
      ...files.map((f) => this.fileItem(f, level)),
    ];
  }

  private fileItem(f: FileInfo, level: number): HTMLElement {
    const start = this.opts.startFiles.includes(f.path);
    const likely = this.opts.likelyArea.includes(f.path);
    const name = f.path.split('/').pop()!;
    const notes = [start && 'start file', likely && 'likely area', f.changed && 'changed', f.readonly && 'read-only'].filter(Boolean).join(', ');
    return h('li', {
      role: 'treeitem', class: `tree-item file${f.changed ? ' changed' : ''}`, 'aria-level': level, 'data-path': f.path, tabindex: -1,
      'aria-selected': 'false', title: notes ? `${f.path} (${notes})` : f.path,
      onclick: (e: MouseEvent) => { e.stopPropagation(); this.cursor = f.path; this.opts.open(f.path); },
    },
    h('span', { class: 'tree-row file', style: `--depth:${level - 1}` },
      h('span', { class: 'file-name' }, name, notes ? srOnly(`, ${notes}`) : null),
      h('span', { class: 'marks', 'aria-hidden': 'true' },
        f.readonly ? h('span', { class: 'mark ro', title: 'read-only' }, lockIcon()) : null,
        start ? h('span', { class: 'mark start', title: 'start file' }, 'S') : null,
        likely ? h('span', { class: 'mark likely', title: 'likely area' }, 'L') : null,
        h('span', { class: 'mark dot', title: f.changed ? 'changed' : '' }, f.changed ? '●' : ''))));
  }
}
