// Types of the instructor API (/api/instructor/...), as the Go server sends them.
import type { Diff, Membership, Run, WorkspaceFile, WorkspaceView } from './types';

/** One lint problem of a dossier's files on disk. */
export interface LintProblem {
  file: string;
  field?: string;
  line?: number;
  message: string;
  fix?: string;
}

/** One claim of a validation: a subject run against a suite. */
export interface Proof {
  dossier: string;
  subject: string;
  suite: 'visible' | 'hidden';
  want: string;
  got: string;
  runs: number;
  identical: number;
  ok: boolean;
  detail: string;
}

/** One validation of a dossier (the newest, or one of its history). */
export interface Validation {
  id?: string;
  state: 'never' | 'running' | 'done' | 'failed';
  /** A digest of the dossier's files and hidden suite. */
  dossier_version?: string;
  /** The name of the instructor token that asked for it. */
  requested_by?: string;
  started_at?: string;
  finished_at?: string;
  runs_done: number;
  runs_total: number;
  ok: boolean;
  proofs: Proof[];
  error?: string;
}

/** A dossier as the instructor page lists it. */
export interface InstructorDossier {
  slug: string;
  title?: string;
  source: string;
  served: boolean;
  preview?: string;
  stale: boolean;
  problems: LintProblem[];
  checked_at: string;
  validation: Validation;
}

/** A class: its dossiers, its join link and how many joined. */
export interface Cohort {
  id: string;
  name: string;
  join_code: string;
  join_path: string;
  dossiers: string[];
  opens_at?: string;
  closes_at?: string;
  created_by: string;
  created_at: string;
  members: number;
}

/** What POST /api/instructor/cohorts takes. */
export interface NewCohort {
  name: string;
  dossiers: string[];
  opens_at?: string;
  closes_at?: string;
}

/** One learner's progress on one dossier of a cohort. */
export interface ClassRow {
  learner_id: string;
  display_name: string;
  dossier: string;
  dossier_title: string;
  workspace_id?: string;
  step: number;
  step_title: string;
  elapsed_seconds: number;
  hints_revealed: number;
  checks: number;
  submissions: number;
  last_failing_property?: string;
  solved_at?: string;
  running?: 'check' | 'submit';
}

/** A cohort with its progress table. */
export interface ClassTable {
  cohort: Cohort;
  rows: ClassRow[];
  at: string;
}

/** Where a dossier trips learners up. */
export interface Insight {
  dossier: string;
  title: string;
  learners: number;
  solved: number;
  solve_rate: number;
  median_seconds_to_solve?: number;
  median_hints_before_solving?: number;
  submissions: number;
  failing_submissions: number;
  failed_properties: { property: string; submissions: number; learners: number }[];
  decoys: { decoy: string; looks_like: string; submissions: number; share: number }[];
  hypotheses: { id: string; title: string; root_cause: boolean; picks: number; solvers: number }[];
  unpicked: number;
}

/** Any learner's workspace, read-only. */
export interface Inspection {
  workspace: WorkspaceView;
  learner_id: string;
  cohorts: Membership[];
  files: WorkspaceFile[];
  diff: Diff;
  runs: Run[];
}
