// The progress table's rows as the instructor arranges them: filtered by
// text and status, sorted by any column. Pure, so it is tested without a page.
import type { ClassRow } from './instructor-types';

/** The columns the table sorts by. */
export type ClassColumn = 'learner' | 'dossier' | 'step' | 'time' | 'hints' | 'checks' | 'submissions' | 'failing' | 'solved';

/** Which rows to keep: every one, the solved, the not solved, those with a run in flight. */
export type ClassStatus = 'all' | 'solved' | 'stuck' | 'running';

/** How the instructor arranged the table. */
export interface ClassView {
  text: string;
  status: ClassStatus;
  column: ClassColumn;
  descending: boolean;
}

/** The value a row sorts by in a column. */
function key(r: ClassRow, c: ClassColumn): string | number {
  switch (c) {
    case 'learner': return r.display_name.toLowerCase();
    case 'dossier': return r.dossier;
    case 'step': return r.step;
    case 'time': return r.elapsed_seconds;
    case 'hints': return r.hints_revealed;
    case 'checks': return r.checks;
    case 'submissions': return r.submissions;
    case 'failing': return r.last_failing_property ?? '';
    case 'solved': return r.solved_at ? Date.parse(r.solved_at) : Number.MAX_SAFE_INTEGER;
  }
}

/** Whether a row passes the status filter. */
function hasStatus(r: ClassRow, s: ClassStatus): boolean {
  switch (s) {
    case 'solved': return !!r.solved_at;
    case 'stuck': return !r.solved_at;
    case 'running': return !!r.running;
    default: return true;
  }
}

/** The rows to show, in order: those matching the text (learner, dossier or
 * failing property, any case) and the status, sorted by the column (ties
 * keep the server's order: members as they joined, dossiers in order). */
export function arrange(rows: ClassRow[], v: ClassView): ClassRow[] {
  const text = v.text.trim().toLowerCase();
  const kept = rows.filter((r) => hasStatus(r, v.status) && (!text ||
    [r.display_name, r.dossier, r.dossier_title, r.last_failing_property ?? ''].some((f) => f.toLowerCase().includes(text))));
  const sign = v.descending ? -1 : 1;
  return kept.map((r, i) => [r, i] as const).sort(([a, i], [b, j]) => {
    const ka = key(a, v.column);
    const kb = key(b, v.column);
    const c = ka < kb ? -1 : ka > kb ? 1 : 0;
    return c * sign || i - j;
  }).map(([r]) => r);
}
