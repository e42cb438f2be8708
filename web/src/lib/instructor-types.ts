// Types of the instructor API (/api/instructor/...), as the Go server sends them.

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

/** The last validation of a dossier. */
export interface Validation {
  state: 'never' | 'running' | 'done' | 'failed';
  started_at?: string;
  finished_at?: string;
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
