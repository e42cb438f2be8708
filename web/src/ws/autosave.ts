// Autosave with optimistic concurrency: each file is saved against the
// version it was loaded at. When the server answers 409 with a newer version
// the file goes into "conflict" and stops saving until the learner chooses
// their version or the server's: nothing is ever overwritten silently.
import { ApiError, api, describeError } from '../lib/api';
import type { WorkspaceFile } from '../lib/types';

export type SaveState = 'saved' | 'dirty' | 'saving' | 'conflict' | 'error';

interface Entry {
  version: number;
  saved: string; // the server's content at `version`
  state: SaveState;
  timer: number | undefined;
  inflight: Promise<void> | null;
  conflict?: WorkspaceFile;
  error?: string;
}

/** Debounce between the last keystroke and the save. */
const SAVE_DELAY_MS = 600;
/** Retry delay after a save failed for a reason other than a conflict. */
const RETRY_MS = 4000;

export class Autosaver {
  private files = new Map<string, Entry>();

  /**
   * @param workspaceID the workspace the files belong to
   * @param content returns the editor's current content of a file
   * @param changed is told whenever a file's save state changes
   * @param stored is told of every file the server stored
   */
  constructor(
    private readonly workspaceID: string,
    private readonly content: (path: string) => string,
    private readonly changed: (path: string) => void,
    private readonly stored: (file: WorkspaceFile) => void,
  ) {}

  /** Starts tracking a file as loaded from (or replaced by) the server. */
  accept(file: WorkspaceFile): void {
    const e = this.files.get(file.path);
    if (e) window.clearTimeout(e.timer);
    this.files.set(file.path, { version: file.version, saved: file.content, state: 'saved', timer: undefined, inflight: e?.inflight ?? null });
    this.changed(file.path);
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  state(path: string): SaveState {
    return this.files.get(path)?.state ?? 'saved';
  }

  conflict(path: string): WorkspaceFile | undefined {
    return this.files.get(path)?.conflict;
  }

  error(path: string): string | undefined {
    return this.files.get(path)?.error;
  }

  /** The version of a file the editor last loaded or saved. */
  version(path: string): number | undefined {
    return this.files.get(path)?.version;
  }

  /** Whether a file has no edit waiting to be saved, or being saved. */
  isClean(path: string): boolean {
    const e = this.files.get(path);
    return !!e && e.state === 'saved' && !e.inflight;
  }

  /** The content last saved on the server. */
  saved(path: string): string | undefined {
    return this.files.get(path)?.saved;
  }

  /** The state of the workspace as a whole, worst first. */
  overall(): SaveState {
    const states = [...this.files.values()].map((e) => e.state);
    for (const s of ['conflict', 'error', 'saving', 'dirty'] as const) if (states.includes(s)) return s;
    return 'saved';
  }

  /** Paths whose save needs the learner (conflicts). */
  conflicts(): string[] {
    return [...this.files.entries()].filter(([, e]) => e.state === 'conflict').map(([p]) => p);
  }

  /** Records an edit and schedules a save. */
  edited(path: string): void {
    const e = this.files.get(path);
    if (!e || e.state === 'conflict') return;
    if (e.state !== 'saving') e.state = 'dirty';
    this.schedule(path, SAVE_DELAY_MS);
    this.changed(path);
  }

  private schedule(path: string, delay: number): void {
    const e = this.files.get(path);
    if (!e) return;
    window.clearTimeout(e.timer);
    e.timer = window.setTimeout(() => void this.save(path), delay);
  }

  /** Saves a file now; resolves to whether it ends up saved. */
  async save(path: string): Promise<boolean> {
    const e = this.files.get(path);
    if (!e) return true;
    window.clearTimeout(e.timer);
    while (e.inflight) await e.inflight;
    if (e.state === 'conflict') return false;
    const content = this.content(path);
    if (content === e.saved) {
      e.state = 'saved';
      e.error = undefined;
      this.changed(path);
      return true;
    }
    e.state = 'saving';
    this.changed(path);
    e.inflight = this.put(path, e, content).finally(() => {
      e.inflight = null;
      this.changed(path);
    });
    await e.inflight;
    return this.state(path) === 'saved';
  }

  private async put(path: string, e: Entry, content: string): Promise<void> {
    try {
      const f = await api.saveFile(this.workspaceID, path, content, e.version);
      e.version = f.version;
      e.saved = f.content;
      e.error = undefined;
      e.state = this.content(path) === e.saved ? 'saved' : 'dirty';
      if (e.state === 'dirty') this.schedule(path, SAVE_DELAY_MS);
      this.stored(f);
    } catch (err) {
      const current = err instanceof ApiError && err.status === 409 ? (err.problem.current as WorkspaceFile | undefined) : undefined;
      if (current) {
        e.state = 'conflict';
        e.conflict = current;
        e.error = err instanceof ApiError ? err.problem.detail : undefined;
        return;
      }
      const d = describeError(err);
      e.state = 'error';
      e.error = d.detail || d.title;
      // Refusals (too large, read-only) wait for the next edit; anything else is retried.
      if (!(err instanceof ApiError && err.status >= 400 && err.status < 500)) this.schedule(path, RETRY_MS);
    }
  }

  /** Saves every file with unsaved edits; resolves to whether all are saved. */
  async flushAll(): Promise<boolean> {
    const results = await Promise.all([...this.files.entries()]
      .filter(([, e]) => e.state !== 'saved' || e.inflight)
      .map(([p]) => this.save(p)));
    return results.every(Boolean);
  }

  /** Waits for a file's save in flight, if any. */
  async idle(path: string): Promise<void> {
    const e = this.files.get(path);
    if (!e) return;
    window.clearTimeout(e.timer);
    while (e.inflight) await e.inflight;
  }

  /** Conflict resolution: keep the learner's content, saving it over the newer version. */
  async keepMine(path: string): Promise<boolean> {
    const e = this.files.get(path);
    if (!e?.conflict) return this.save(path);
    e.version = e.conflict.version;
    e.saved = e.conflict.content;
    e.conflict = undefined;
    e.state = 'dirty';
    return this.save(path);
  }

  /** Conflict resolution: take the server's version; returns its content. */
  takeTheirs(path: string): string | undefined {
    const e = this.files.get(path);
    if (!e?.conflict) return undefined;
    const theirs = e.conflict;
    e.conflict = undefined;
    this.accept(theirs);
    return theirs.content;
  }
}
