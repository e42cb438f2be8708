// Shapes of the Learner API's JSON (api/openapi.json). The app renders only
// what these carry; it holds no answers of its own.

export interface CardProgress {
  workspace_id: string;
  steps_done: number;
  steps: number;
  solved: boolean;
}

/** The public phrase a catalog search matched, and its matching words. */
export interface Match {
  kind: 'title' | 'summary' | 'signal' | 'symptom' | 'error' | 'variant_phrasing';
  text: string;
  words: string[];
}

/** A kind of concurrency failure, which the catalog can be browsed by. */
export interface FailureClass {
  id: string;
  label: string;
}

export interface Card {
  slug: string;
  title: string;
  summary: string;
  kind: string;
  topic: string;
  failure_class: FailureClass;
  difficulty: string;
  estimate_minutes: number;
  progress?: CardProgress;
  /** Only in a search. */
  match?: Match;
}

export interface Incident {
  narrative: string;
  signal: string;
  symptom: string;
  expected: string;
  actual: string;
}

export interface ArchNode {
  id: string;
  label: string;
  kind?: string;
}

export interface ArchEdge {
  from: string;
  to: string;
  label?: string;
}

export interface LogPanel {
  title: string;
  source: string;
  file: string;
  /** Lines containing it are the key lines the panel opens on. */
  key?: string;
  lines: string[];
}

export interface Metric {
  name: string;
  value: number;
  unit?: string;
}

export interface MetricPanel {
  title: string;
  source: string;
  file: string;
  values: Metric[];
}

export interface Change {
  summary: string;
  when?: string;
  files?: string[];
}

export interface Hypothesis {
  id: string;
  title: string;
  rationale: string;
}

export interface Dossier {
  format: number;
  slug: string;
  title: string;
  summary: string;
  kind: string;
  topic: string;
  failure_class: FailureClass;
  difficulty: string;
  estimate_minutes: number;
  incident: Incident;
  architecture: { nodes: ArchNode[]; edges: ArchEdge[] };
  logs: LogPanel[];
  metrics: MetricPanel[];
  changes: Change[];
  hypotheses: Hypothesis[];
  reproduction: string[];
  focus_question: string;
  start_files: string[];
  likely_area: string[];
  investigation: string[];
  repo_scale: { areas: string; fix_scope: string; meaningful_files: number };
  hint_count: number;
  checks: { visible: { name: string; command: string } };
  readonly_files: string[];
  fault_model: FaultModel;
}

/** A duration as the dossier writes it: a number and a unit ("1 s", "300 ms"), or "unbounded" for a pause. */
export type Duration = string;

/** One way calls to a remote can fail. */
export interface Failure {
  /** The methods that can fail this way; every call when absent. */
  calls?: string[];
  kind: 'error' | 'timeout' | 'refused';
  /** Whether a failed call took effect. */
  effect: 'none' | 'applied' | 'unknown';
}

/** A remote the code calls. */
export interface Remote {
  name: string;
  label: string;
  latency: { min?: Duration; max: Duration };
  /** Methods that wait, without a limit, while another worker holds what they ask for. */
  waits?: string[];
  /** When the code's client gives up on a call. */
  timeout?: Duration;
  /** The shortest time one waiting request may leave between two calls. */
  min_poll_interval?: Duration;
  failures?: Failure[];
}

/** How work reaches the code, and how often the same work can arrive. */
export interface Delivery {
  semantics: 'at-least-once' | 'once';
  redelivery_after?: Duration;
  redelivery_until?: Duration;
  duplicates: 'none' | 'sequential' | 'overlapping';
  same_id?: boolean;
}

/** What the code has to cope with in production: part of the problem statement. */
export interface FaultModel {
  workers: number;
  /** How much work one worker takes on at once. */
  handles: 'one-at-a-time' | 'many-at-once';
  remotes: Remote[];
  delivery: Delivery;
  leases?: { name: string; key?: string; ttl: Duration; clock: 'store' | 'holder' }[];
  timeouts?: { name: string; after: Duration }[];
  /** Absent when workers never freeze. */
  pauses?: { max: Duration };
  crashes: 'anywhere' | 'none';
  note?: string;
}

export interface FileInfo {
  path: string;
  version: number;
  size: number;
  readonly: boolean;
  changed: boolean;
  updated_at: string;
}

export interface WorkspaceFile extends FileInfo {
  content: string;
}

export interface Step {
  number: number;
  key: string;
  title: string;
  done: boolean;
  done_at?: string;
}

export interface Answer {
  hypothesis_id: string;
  hypothesis_title: string;
  explanation: string;
}

/** One step of a playbook and what to expect once it is done. */
export interface PlaybookStep {
  action: string;
  expected: string;
}

/** An incident that looks like the playbook's but is something else. */
export interface LookAlike {
  when: string;
  really: string;
  /** The served dossier about the look-alike, when there is one. */
  dossier?: { slug: string; title: string };
}

/** A solved dossier's on-call playbook. */
export interface Playbook {
  slug: string;
  title: string;
  solved_at: string;
  tldr: string;
  error: string;
  steps: PlaybookStep[];
  use_when: string[];
  not_for: LookAlike[];
  variant_phrasings: string[];
  why: string;
  edge_cases: string[];
  provenance: { title: string; url: string }[];
}

export interface Progress {
  steps: Step[];
  current: number;
  started_at: string;
  solved_at?: string;
  elapsed_seconds: number;
  answer?: Answer;
  /** Only after a passing submission. */
  playbook?: Playbook;
}

export interface HintView {
  index: number;
  title: string;
  revealed: boolean;
  text?: string;
  revealed_at?: string;
}

export type RunKind = 'check' | 'submit';
export type RunStatus = 'queued' | 'running' | 'done';

export interface RunSummary {
  id: string;
  workspace_id: string;
  kind: RunKind;
  status: RunStatus;
  verdict?: string;
  created_at: string;
  started_at?: string;
  finished_at?: string;
}

export interface TraceStep {
  step: number;
  at: number;
  worker: string;
  operation: string;
  key: string;
  result: string;
  /** The remote a call went to: store, locks, a service or an effect target. */
  service?: string;
  /** The delivery whose handling made the call, e.g. "job-7 #2". */
  request?: string;
  /** Where in the repository the call was made: "src/x.js:42:11". */
  site?: string;
  /** When the call was made (virtual ms), when that was before `at`. */
  issued?: number;
  /** The whole value when `result` cut it short. */
  detail?: string;
  highlight?: boolean;
}

export interface TestResult {
  name: string;
  status: 'pass' | 'fail' | 'error';
  message: string;
  output: string;
  schedules?: number;
  trace?: TraceStep[];
}

/** A known wrong fix that a failed submission's failed tests match. */
export interface WrongTurn {
  looks_like: string;
  why_it_fails: string;
  look_at: string;
  /** The failed hidden tests it explains. */
  tests: string[];
}

export interface Run extends RunSummary {
  message?: string;
  tests: TestResult[];
  output?: string;
  duration_ms?: number;
  executions: number;
  /** Only on a failed submission, and only when its failed tests match one. */
  wrong_turns?: WrongTurn[];
}

export interface RunEvent {
  id: number;
  status: RunStatus;
  at: string;
}

export interface WorkspaceView {
  id: string;
  dossier: string;
  title: string;
  created_at: string;
  elapsed_seconds: number;
  files: FileInfo[];
  progress: Progress;
  hints: HintView[];
  runs: RunSummary[];
  /** The hypothesis the learner marked, once they did. */
  hypothesis?: string;
  /** True in an instructor's throwaway preview. */
  preview?: boolean;
}

/** GET /api/cohorts/join/{code}: the cohort a join link names. */
export interface Invitation {
  name: string;
  dossiers: { slug: string; title: string }[];
  opens_at?: string;
  closes_at?: string;
  /** Whether learners may join now. */
  open: boolean;
  /** The name this learner joined under, if they did. */
  joined_as?: string;
}

/** A cohort a learner is in, and the name they gave. */
export interface Membership {
  cohort_id: string;
  cohort_name: string;
  display_name: string;
}

/** GET /api/workspaces/{id}/events: what the page follows live. */
export interface Snapshot {
  files: FileInfo[];
  runs: RunSummary[];
}

/** How to clone a workspace with git. */
export interface GitAccess {
  url: string;
  token: string;
  clone_url: string;
  clone_command: string;
}

export interface WorkspaceSummary {
  id: string;
  dossier: string;
  title: string;
  created_at: string;
}

export interface Diff {
  patch: string;
  files: string[];
}

/** An RFC 9457 problem document with racecase's extension members. */
export interface Problem {
  type?: string;
  title: string;
  status: number;
  detail?: string;
  code?: string;
  request_id?: string;
  [extra: string]: unknown;
}
