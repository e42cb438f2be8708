// The instructor API client and where the instructor token is kept: in
// sessionStorage, so it lasts as long as the tab and is never sent in a URL.
import { call, send } from './api';
import type { ClassTable, Cohort, Insight, Inspection, InstructorDossier, NewCohort, Validation } from './instructor-types';
import type { WorkspaceView } from './types';

const tokenKey = 'racecase.instructor-token';

/** Moves a token from the page's #token=… fragment into sessionStorage. */
export function takeTokenFromHash(): void {
  const m = /^#token=(.+)$/.exec(location.hash);
  if (!m) return;
  sessionStorage.setItem(tokenKey, decodeURIComponent(m[1]));
  history.replaceState(null, '', location.pathname + location.search);
}

/** The instructor token of this tab, or null. */
export function instructorToken(): string | null {
  return sessionStorage.getItem(tokenKey);
}

/** Keeps the token for this tab; null forgets it. */
export function setInstructorToken(token: string | null): void {
  if (token) sessionStorage.setItem(tokenKey, token);
  else sessionStorage.removeItem(tokenKey);
}

function auth(): Record<string, string> {
  return { Authorization: `Bearer ${instructorToken() ?? ''}` };
}

const validateURL = (slug: string) => `/api/instructor/dossiers/${encodeURIComponent(slug)}/validate`;

const cohortURL = (id: string) => `/api/instructor/cohorts/${encodeURIComponent(id)}`;

export const instructorApi = {
  dossiers: () => call<{ dossiers: InstructorDossier[] }>('GET', '/api/instructor/dossiers', undefined, auth()).then((r) => r.dossiers),
  validate: (slug: string) => call<Validation>('POST', validateURL(slug), undefined, auth()),
  /** A dossier's newest validations, newest first. */
  validations: (slug: string) => call<{ validations: Validation[] }>('GET', `/api/instructor/dossiers/${encodeURIComponent(slug)}/validations`, undefined, auth())
    .then((r) => r.validations),
  cohorts: () => call<{ cohorts: Cohort[] }>('GET', '/api/instructor/cohorts', undefined, auth()).then((r) => r.cohorts),
  createCohort: (c: NewCohort) => call<Cohort>('POST', '/api/instructor/cohorts', c, auth()),
  classTable: (id: string) => call<ClassTable>('GET', cohortURL(id), undefined, auth()),
  /** The progress table as CSV text. */
  classCSV: (id: string) => send('GET', cohortURL(id), 'text/csv', undefined, auth()),
  insights: (id: string) => call<{ insights: Insight[] }>('GET', `${cohortURL(id)}/insights`, undefined, auth()).then((r) => r.insights),
  /** Every dossier's insight over every learner (previews aside). */
  allInsights: () => call<{ insights: Insight[] }>('GET', '/api/instructor/insights', undefined, auth()).then((r) => r.insights),
  inspect: (wsID: string) => call<Inspection>('GET', `/api/instructor/workspaces/${encodeURIComponent(wsID)}`, undefined, auth()),
  /** Makes this browser a throwaway preview learner of a dossier (again: a reset). */
  preview: (dossier: string) => call<{ path: string; workspace: WorkspaceView }>('POST', '/api/instructor/previews', { dossier }, auth()),
};
