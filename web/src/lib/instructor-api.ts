// The instructor API client and where the instructor token is kept: in
// sessionStorage, so it lasts as long as the tab and is never sent in a URL.
import { call } from './api';
import type { InstructorDossier, Validation } from './instructor-types';

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

export const instructorApi = {
  dossiers: () => call<{ dossiers: InstructorDossier[] }>('GET', '/api/instructor/dossiers', undefined, auth()).then((r) => r.dossiers),
  validate: (slug: string) => call<Validation>('POST', validateURL(slug), undefined, auth()),
};
