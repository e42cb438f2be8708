// The dossier page: the evidence desk beside the workspace, the progress
// stepper and timer, the coach and the Evidence Map. It finds (or prepares)
// the learner's workspace for the dossier and wires the parts together.
import { desk as buildDesk } from '../desk/desk';
import { api, describeError, patiently } from '../lib/api';
import { h, replace } from '../lib/dom';
import { capitalise } from '../lib/format';
import { go } from '../lib/nav';
import { loadPref, savePref } from '../lib/prefs';
import type { Dossier, Run, RunKind, WorkspaceView } from '../lib/types';
import { RunController } from '../run/controller';
import { OutputPanel } from '../run/output';
import { verdictWords } from '../run/results';
import { coach as buildCoach } from '../side/coach';
import { evidenceMap } from '../side/evidence-map';
import { stepper } from '../side/stepper';
import { timer as buildTimer } from '../side/timer';
import { followWorkspace } from '../ws/live';
import { WorkspacePane } from '../ws/workspace';
import { brand, topBar } from './chrome';
import { openPreview } from './instructor';
import { bindKeys, toggleFocusMode } from './page-keys';
import { pageLayout } from './page-layout';

/**
 * Finds the learner's newest workspace for the dossier, or creates one when
 * they have none. A list that cannot be read is an error, never "none": a new
 * workspace would hide the learner's work and results behind a fresh start.
 */
async function prepareWorkspace(slug: string): Promise<WorkspaceView> {
  const mine = await patiently(() => api.workspaces());
  const found = mine.find((w) => w.dossier === slug);
  return found ? patiently(() => api.workspace(found.id)) : api.createWorkspace(slug);
}

/** The top bar's status after a run: what the verdict means for the learner. */
function verdictStatus(r: Run): [string, 'ok' | 'bad'] {
  if (r.verdict === 'pass') return [r.kind === 'submit' ? 'Solved' : 'Checks pass', 'ok'];
  return [r.verdict === 'fail' ? 'Failed' : capitalise(verdictWords(r.verdict ?? 'error')), 'bad'];
}

/** Opens the tabs open before the last reload, or else the start files. */
async function reopenTabs(p: WorkspacePane, wsID: string, startFiles: string[]): Promise<void> {
  const saved = loadPref<{ open: string[]; active: string | null }>(`tabs.${wsID}`);
  const open = saved?.open.length ? saved.open : startFiles;
  for (const f of open) await p.open(f);
  const active = saved?.active && open.includes(saved.active) ? saved.active : open[0];
  if (active) await p.open(active);
}

/** The banner of an instructor's preview: a throwaway learner, with a reset. */
function previewBanner(slug: string, out: OutputPanel): HTMLElement {
  const fail = (err: unknown) => {
    const e = describeError(err);
    out.line(`${e.title}: ${e.detail}`, 'err');
  };
  return h('div', { class: 'preview-banner', role: 'note' },
    h('strong', null, 'Preview'),
    h('span', null, 'You are a throwaway learner: nothing here counts in a cohort, and your own workspaces are untouched.'),
    h('button', { type: 'button', class: 'btn small secondary', id: 'reset-preview', onclick: () => {
      openPreview(slug).catch(fail);
    } }, 'Reset preview'),
    h('button', { type: 'button', class: 'btn small ghost', id: 'leave-preview', onclick: () => {
      api.leavePreview().then(() => go('/instructor'), fail);
    } }, 'Leave preview'));
}

/** Renders an error page for a dossier that cannot be shown. */
function failure(root: HTMLElement, err: unknown): () => void {
  const e = describeError(err);
  replace(root, h('header', { class: 'topbar' }, brand()),
    h('main', { id: 'main', class: 'catalog' }, h('div', { class: 'error-card', role: 'alert' },
      h('h1', null, e.title), h('p', null, e.detail), h('a', { href: '/', 'data-link': true, class: 'btn secondary' }, 'Back to the catalog'))));
  return () => {};
}

/** Renders the dossier page for slug into root; resolves to its clean-up. */
export async function dossierPage(root: HTMLElement, slug: string): Promise<() => void> {
  let d: Dossier;
  try {
    d = await api.dossier(slug);
  } catch (err) {
    return failure(root, err);
  }
  document.title = `${d.title} · racecase`;
  const em = evidenceMap();
  em.set('signal', 'loaded');
  const clock = buildTimer();
  let pane: WorkspacePane | null = null;
  let runs: RunController | null = null;
  const run = (kind: RunKind) => {
    document.body.classList.remove('focus-mode');
    void runs?.start(kind);
  };
  const focus = () => toggleFocusMode(root);
  const top = topBar(d, clock.el, focus);
  const steps = stepper({ check: () => run('check'), edit: () => pane?.focusEditor(), submit: () => run('submit') });
  const stepperBar = h('section', { class: 'stepper-bar', 'aria-label': 'Progress and panes' }, steps.el);
  const out = new OutputPanel();
  const coach = buildCoach((ok) => em.set('hints', ok ? 'loaded' : 'error'));
  const shelf = h('span', { class: 'shelf-count' }, '…');
  const open = (p: string) => void pane?.open(p);
  let wsID = '';
  const onMark = (id: string) => {
    if (wsID) api.pickHypothesis(wsID, id).catch(() => out.line('Your hypothesis pick could not be saved; it is kept in this browser.', 'dim'));
  };
  const desk = buildDesk(d, { open, toggleFocus: focus, markKey: d.slug, onMark, shelfCount: shelf, coach: coach.el, evidenceMap: em.el });
  const work = h('div', { class: 'work' },
    h('section', { class: 'workspace preparing', 'aria-label': 'Workspace', 'aria-busy': 'true' },
      h('div', { class: 'ws-toolbar' }, h('span', { class: 'muted' }, 'Workspace'), h('span', { class: 'chip status busy' }, 'preparing')),
      h('div', { class: 'ws-body' },
        h('nav', { class: 'explorer', 'aria-label': 'Explorer' }, h('header', { class: 'pane-head' }, h('h2', null, 'Explorer')),
          h('p', { class: 'muted small pad' }, 'Loading files')),
        h('div', { class: 'editor-col placeholder' }))),
    out.el);
  const main = h('main', { id: 'main', class: 'page' }, desk.el, work);
  replace(root, top.el, stepperBar, main);
  out.line('$ prepare workspace', 'cmd');
  out.line('Preparing workspace…', 'dim');
  api.cards().then((cards) => { shelf.textContent = String(cards.filter((c) => c.kind === d.kind).length); })
    .catch(() => { shelf.textContent = '–'; });

  let ws: WorkspaceView;
  try {
    ws = await prepareWorkspace(d.slug);
  } catch (err) {
    const e = describeError(err);
    out.line(`${e.title}: ${e.detail}`, 'err');
    top.setStatus('Unavailable', 'bad');
    em.set('files', 'error');
    return () => clock.stop();
  }
  em.set('files', 'loaded');
  wsID = ws.id;
  if (ws.hypothesis) desk.hypotheses.restore(ws.hypothesis);
  else if (desk.hypotheses.marked()) onMark(desk.hypotheses.marked()!);
  if (ws.preview) root.insertBefore(previewBanner(d.slug, out), root.children[1] ?? null);

  let progressTimer: number | undefined;
  const refreshProgress = async () => {
    try {
      const p = await api.progress(ws.id);
      steps.update(p);
      clock.update(p);
      desk.hypotheses.reveal(p.answer);
      desk.playbook.reveal(p.playbook);
      em.set('progress', 'loaded');
      if (p.solved_at && !runs?.busy) top.setStatus('Solved', 'ok');
    } catch {
      em.set('progress', 'error');
    }
  };
  const progressSoon = () => {
    window.clearTimeout(progressTimer);
    progressTimer = window.setTimeout(() => void refreshProgress(), 300);
  };

  pane = new WorkspacePane(ws.id, ws.files, d, {
    run,
    filesLoaded: (ok) => em.set('files', ok ? 'loaded' : 'error'),
    stored: progressSoon,
    say: (line, cls) => out.line(line, cls),
    tabsChanged: (open, active) => savePref(`tabs.${ws.id}`, { open, active }),
  });
  const p = pane;
  replace(work, p.el, out.el);
  const layout = pageLayout({ main, desk: desk.el, work, workspace: p.el, out, explorer: p.explorerSplitter });
  stepperBar.append(layout.toggles);
  main.prepend(layout.viewTabs);
  runs = new RunController(ws.id, d.checks.visible.command, d.checks.visible.name, out, {
    beforeRun: () => p.saveAll(),
    running: (kind: RunKind | null) => {
      p.setRunning(kind);
      if (kind) {
        top.setStatus(kind === 'check' ? 'Running checks' : 'Submitting', 'busy');
        layout.runStarted();
      } else top.setStatus('Ready', 'idle');
    },
    finished: (r: Run) => {
      em.set('results', 'loaded');
      void refreshProgress();
      top.setStatus(...verdictStatus(r));
      layout.revealResults();
    },
  }, {
    open: (site) => {
      layout.showCode();
      void p.showLine(site.path, site.line, site.column);
    },
    mark: (site) => p.markLine(site?.path ?? null, site?.line),
  });
  top.setStatus('Ready', 'idle');
  steps.update(ws.progress);
  clock.update(ws.progress);
  desk.hypotheses.reveal(ws.progress.answer);
  desk.playbook.reveal(ws.progress.playbook);
  em.set('progress', 'loaded');
  coach.set(ws.id, ws.hints);
  if (ws.progress.solved_at) top.setStatus('Solved', 'ok');
  out.line(`Workspace ready: ${ws.files.length} files. Start with ${d.start_files.join(', ')}.`, 'ok');
  out.line('Run checks (Ctrl/Cmd+Enter) to reproduce the bug; edits save automatically (Ctrl/Cmd+S saves now).', 'dim');
  await reopenTabs(p, ws.id, d.start_files);
  const latest = ws.runs[0];
  if (latest) {
    if (latest.status === 'done') {
      await runs.restore(latest);
      em.set('results', 'loaded');
    } else void runs.resume(latest.id);
  }

  // Edits and runs from elsewhere (a git push, another tab) show up here too.
  const rc = runs;
  let newestRun = latest?.id;
  const stopFollowing = followWorkspace(ws.id, (snap) => {
    void p.syncFiles(snap.files);
    const newest = snap.runs[0];
    if (newest && newest.id !== newestRun) {
      newestRun = newest.id;
      if (!rc.busy && !rc.knows(newest.id)) {
        if (newest.status === 'done') void rc.restore(newest);
        else void rc.resume(newest.id, 'started elsewhere (a git push or another tab)');
      }
    }
    progressSoon();
  });

  const unbind = bindKeys({ save: () => void p.saveAll(), run: () => run('check'), leaveFocus: focus });
  const beforeUnload = (e: BeforeUnloadEvent) => {
    if (p.hasUnsaved()) e.preventDefault();
  };
  window.addEventListener('beforeunload', beforeUnload);
  return () => {
    layout.dispose();
    stopFollowing();
    unbind();
    window.removeEventListener('beforeunload', beforeUnload);
    window.clearTimeout(progressTimer);
    clock.stop();
    void p.saveAll();
    document.body.classList.remove('focus-mode');
  };
}
