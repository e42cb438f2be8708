// Starts runs and follows them live over Server-Sent Events (falling back to
// polling when the stream breaks), writing to the console and rendering the
// results the API returns, and nothing else.
import { ApiError, api, describeError, patiently } from '../lib/api';
import { duration } from '../lib/format';
import type { Run, RunEvent, RunKind, RunStatus, RunSummary } from '../lib/types';
import type { OutputPanel } from './output';
import { resultsView, runLabel, verdictWords } from './results';
import type { SourceLinks } from './source-site';

export interface RunHooks {
  /** Saves pending edits; false stops the run (e.g. an unresolved conflict). */
  beforeRun(): Promise<boolean>;
  /** A run is in flight (kind), or none is (null). */
  running(kind: RunKind | null): void;
  /** A run finished with this verdict. */
  finished(run: Run): void;
}

const POLL_MS = 1000;

export class RunController {
  private active: string | null = null;
  private followed = new Set<string>();

  constructor(
    private readonly wsID: string,
    private readonly checkCommand: string,
    private readonly checkName: string,
    private readonly out: OutputPanel,
    private readonly hooks: RunHooks,
    private readonly links: SourceLinks,
  ) {}

  get busy(): boolean {
    return this.active !== null;
  }

  /** Whether this page has followed (or shown) the run. */
  knows(runID: string): boolean {
    return this.followed.has(runID);
  }

  /** Saves, starts a check or a submission, and follows it. */
  async start(kind: RunKind): Promise<void> {
    if (this.active) return;
    this.active = 'starting';
    this.hooks.running(kind);
    this.out.show('console');
    try {
      if (!(await this.hooks.beforeRun())) {
        this.out.setStatus('not started', 'bad');
        this.stop();
        return;
      }
      this.out.line(kind === 'check' ? `$ ${this.checkCommand}    # ${this.checkName}` : '$ submit fix    # hidden concurrency tests, every interleaving', 'cmd');
      const run = await api.startRun(this.wsID, kind);
      this.follow(run);
    } catch (err) {
      const inFlight = err instanceof ApiError && err.status === 409 && typeof err.problem.run_id === 'string' ? err.problem.run_id : null;
      const e = describeError(err);
      this.out.line(`${e.title}: ${e.detail}`, 'err');
      this.out.setStatus('not started', 'bad');
      this.stop();
      if (inFlight) void this.resume(inFlight);
    }
  }

  /** Follows a run this page did not start: one in flight when it loaded, or started elsewhere. */
  async resume(runID: string, origin = 'started earlier'): Promise<void> {
    try {
      const run = await api.run(runID);
      this.hooks.running(run.kind);
      this.out.line(`$ following ${runLabel(run.kind).toLowerCase()} ${run.id} ${origin}`, 'cmd');
      this.follow(run);
    } catch (err) {
      const e = describeError(err);
      this.out.line(`${e.title}: ${e.detail}`, 'err');
    }
  }

  /** Shows the results of a run that finished earlier, without re-announcing it. */
  async restore(summary: RunSummary): Promise<void> {
    let run: Run;
    try {
      run = await patiently(() => api.run(summary.id));
    } catch (err) {
      const e = describeError(err);
      this.out.line(`The last run's results could not be loaded (${e.title}: ${e.detail}); run the checks again to see them.`, 'err');
      return;
    }
    if (run.status !== 'done') return this.resume(run.id);
    this.followed.add(run.id);
    this.out.line(`Last ${runLabel(run.kind).toLowerCase()}: ${this.summaryLine(run)}`, run.verdict === 'pass' ? 'ok' : 'bad');
    this.out.setResults(resultsView(run, this.links), this.count(run));
  }

  private follow(run: Run): void {
    this.followed.add(run.id);
    this.active = run.id;
    this.hooks.running(run.kind);
    let last: RunStatus | null = null;
    const status = (st: RunStatus) => {
      if (st === last) return;
      last = st;
      if (st === 'queued') this.out.line('queued: waiting for a runner…', 'dim');
      if (st === 'running') this.out.line('running in a locked-down container…', 'dim');
      this.out.setStatus(st === 'done' ? 'finishing' : st, 'busy');
    };
    status(run.status);
    if (run.status === 'done') {
      this.finish(run);
      return;
    }
    let done = false;
    const es = new EventSource(api.runEventsURL(run.id));
    es.addEventListener('status', (ev) => {
      const e = JSON.parse((ev as MessageEvent).data) as RunEvent;
      status(e.status);
    });
    es.addEventListener('verdict', (ev) => {
      done = true;
      es.close();
      this.finish(JSON.parse((ev as MessageEvent).data) as Run);
    });
    es.addEventListener('error', () => {
      if (done) return;
      // The stream broke before the verdict: stop reconnecting and poll instead.
      es.close();
      done = true;
      void this.poll(run.id, status);
    });
  }

  private async poll(runID: string, status: (s: RunStatus) => void): Promise<void> {
    for (;;) {
      try {
        const run = await api.run(runID);
        status(run.status);
        if (run.status === 'done') {
          this.finish(run);
          return;
        }
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          this.out.line(`${err.problem.title}: ${err.problem.detail ?? ''}`, 'err');
          this.stop();
          return;
        }
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }

  private summaryLine(run: Run): string {
    const passed = run.tests.filter((t) => t.status === 'pass').length;
    return `${runLabel(run.kind)} ${verdictWords(run.verdict ?? 'error')}: ${passed} of ${run.tests.length} tests passed${run.duration_ms ? ` in ${duration(run.duration_ms)}` : ''}`;
  }

  private count(run: Run): string {
    return `${run.tests.filter((t) => t.status === 'pass').length}/${run.tests.length}`;
  }

  private finish(run: Run): void {
    if (run.output) this.out.block(run.output);
    if (run.message) this.out.line(run.message, run.verdict === 'pass' ? 'ok' : 'bad');
    const ok = run.verdict === 'pass';
    this.out.line(`${ok ? '✓' : '✗'} ${this.summaryLine(run)}`, ok ? 'ok' : 'bad');
    this.out.setStatus(ok ? 'passed' : run.verdict === 'fail' ? 'failed' : run.verdict ?? 'error', ok ? 'ok' : 'bad');
    this.out.setResults(resultsView(run, this.links), this.count(run));
    this.stop();
    this.hooks.finished(run);
  }

  private stop(): void {
    this.active = null;
    this.hooks.running(null);
  }
}
