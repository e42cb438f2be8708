// The Learner API client: one function per route the app uses. Errors come
// back as ApiError carrying the RFC 9457 problem the API sent, so the page
// can show its title and detail to the learner.
import type {
  Card, Diff, Dossier, FileInfo, GitAccess, HintView, Invitation, Membership, Playbook, Problem, Progress, Run, RunKind,
  WorkspaceFile, WorkspaceSummary, WorkspaceView,
} from './types';

/** A failed API call, with the problem document the API answered. */
export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title);
    this.name = 'ApiError';
  }

  get status(): number {
    return this.problem.status;
  }
}

/** Turns anything thrown by a call into a sentence for the learner. */
export function describeError(err: unknown): { title: string; detail: string } {
  if (err instanceof ApiError) {
    return { title: err.problem.title, detail: err.problem.detail ?? '' };
  }
  if (err instanceof TypeError) {
    return { title: 'Cannot reach racecase', detail: 'The server did not answer. Check that racecase is running, then try again.' };
  }
  return { title: 'Something went wrong', detail: String((err as Error)?.message ?? err) };
}

/** Waits before each further try of a read the server may have missed (busy, restarting). */
const RETRY_MS = [250, 1000, 3000];

/** Whether a failed read may succeed when tried again: no answer, too busy, or a server error. */
const transient = (err: unknown): boolean =>
  err instanceof TypeError || (err instanceof ApiError && (err.status === 429 || err.status >= 500));

/**
 * Makes a read, trying it again after a transient failure, so that one dropped
 * request neither loses what the learner had nor is taken for "there is none".
 */
export async function patiently<T>(read: () => Promise<T>): Promise<T> {
  for (let i = 0; ; i += 1) {
    try {
      return await read();
    } catch (err) {
      if (i >= RETRY_MS.length || !transient(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[i]));
    }
  }
}

/** Sends one request and returns the answer's text, or throws an ApiError. */
export async function send(method: string, url: string, accept: string, body?: unknown, headers: Record<string, string> = {}): Promise<string> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { ...headers, Accept: accept } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(url, init);
  const text = await res.text();
  if (!res.ok) {
    const data = parseJSON(text);
    const p = (data && typeof data === 'object' ? data : {}) as Partial<Problem>;
    throw new ApiError({ ...p, title: p.title || res.statusText || 'Request failed', status: res.status });
  }
  return text;
}

/** Parses JSON, or gives undefined for an empty or non-JSON text. */
function parseJSON(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Sends one request and decodes the JSON answer, or throws an ApiError. */
export async function call<T>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  return parseJSON(await send(method, url, 'application/json', body, headers)) as T;
}

/** Encodes a workspace path for a URL, keeping its slashes. */
export function pathURL(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** The query string of a catalog address or request: a search, a failure class, both or neither. */
export function catalogQuery(q: string, failureClass: string): string {
  const params = [q ? `q=${encodeURIComponent(q)}` : '', failureClass ? `class=${encodeURIComponent(failureClass)}` : ''].filter(Boolean);
  return params.length ? `?${params.join('&')}` : '';
}

const ws = (id: string) => `/api/workspaces/${encodeURIComponent(id)}`;

export const api = {
  /** Every dossier, the most approachable first; with failureClass, only that class's. */
  cards: (failureClass = '') => call<{ dossiers: Card[] }>('GET', `/api/dossiers${catalogQuery('', failureClass)}`).then((r) => r.dossiers),
  /** The dossiers whose public text matches q, best first, each with its matching phrase; with failureClass, only that class's. */
  search: (q: string, failureClass = '') =>
    call<{ dossiers: Card[] }>('GET', `/api/dossiers${catalogQuery(q, failureClass)}`).then((r) => r.dossiers),
  dossier: (slug: string) => call<Dossier>('GET', `/api/dossiers/${encodeURIComponent(slug)}`),
  workspaces: () => call<{ workspaces: WorkspaceSummary[] }>('GET', '/api/workspaces').then((r) => r.workspaces),
  createWorkspace: (dossier: string) => call<WorkspaceView>('POST', '/api/workspaces', { dossier }),
  workspace: (id: string) => call<WorkspaceView>('GET', ws(id)),
  readFile: (id: string, path: string) => call<WorkspaceFile>('GET', `${ws(id)}/files/${pathURL(path)}`),
  saveFile: (id: string, path: string, content: string, baseVersion: number) =>
    call<WorkspaceFile>('PUT', `${ws(id)}/files/${pathURL(path)}`, { content, base_version: baseVersion }),
  resetFile: (id: string, path: string) => call<WorkspaceFile>('POST', `${ws(id)}/reset/${pathURL(path)}`),
  resetAll: (id: string) => call<{ files: FileInfo[] }>('POST', `${ws(id)}/reset`).then((r) => r.files),
  diff: (id: string) => call<Diff>('GET', `${ws(id)}/diff`),
  hints: (id: string) => call<{ hints: HintView[] }>('GET', `${ws(id)}/hints`).then((r) => r.hints),
  revealHint: (id: string) => call<HintView>('POST', `${ws(id)}/hints`),
  progress: (id: string) => call<Progress>('GET', `${ws(id)}/progress`),
  startRun: (id: string, kind: RunKind) => call<Run>('POST', `${ws(id)}/runs`, { kind }),
  run: (runID: string) => call<Run>('GET', `/api/runs/${encodeURIComponent(runID)}`),
  runEventsURL: (runID: string) => `/api/runs/${encodeURIComponent(runID)}/events`,
  workspaceEventsURL: (id: string) => `${ws(id)}/events`,
  gitAccess: (id: string) => call<GitAccess>('GET', `${ws(id)}/git`),
  rotateGitToken: (id: string) => call<GitAccess>('POST', `${ws(id)}/git/token`),
  /** The learner's shelf: the playbook of every dossier they solved. */
  playbooks: () => call<{ playbooks: Playbook[] }>('GET', '/api/playbooks').then((r) => r.playbooks),
  /** One solved dossier's playbook as a Markdown document. */
  playbookMarkdown: (slug: string) => send('GET', `/api/playbooks/${encodeURIComponent(slug)}`, 'text/markdown'),
  /** The whole shelf as one Markdown document. */
  shelfMarkdown: () => send('GET', '/api/playbooks', 'text/markdown'),
  /** Records the hypothesis the learner marks. */
  pickHypothesis: (id: string, hypothesis: string) => call<{ hypothesis: string }>('PUT', `${ws(id)}/hypothesis`, { hypothesis }),
  invitation: (code: string) => call<Invitation>('GET', `/api/cohorts/join/${encodeURIComponent(code)}`),
  join: (code: string, displayName: string) =>
    call<Membership>('POST', `/api/cohorts/join/${encodeURIComponent(code)}`, { display_name: displayName }),
  /** Ends this browser's preview and gives it back its own learner. */
  leavePreview: () => send('POST', '/api/preview/leave', 'application/json'),
};
