// The instructor page: asks for the instructor token (or takes it from the
// URL's #token=…), then lists every dossier with its lint and validate
// status, refreshing every two seconds so reloads and validations show.
import { ApiError, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import { instructorApi, instructorToken, setInstructorToken, takeTokenFromHash } from '../lib/instructor-api';
import { brand } from './chrome';
import { dossierTable } from './instructor-table';

const refreshMs = 2000;

function tokenForm(main: HTMLElement, refused: boolean, done: () => void): void {
  const input = h('input', { type: 'password', id: 'instructor-token', name: 'token', required: true, autocomplete: 'off' });
  replace(main, h('form', { class: 'token-form', onsubmit: (e: Event) => {
    e.preventDefault();
    setInstructorToken(input.value.trim());
    done();
  } },
  h('h1', null, 'Instructor'),
  refused ? h('p', { class: 'error-card', role: 'alert' }, 'That token was refused. racecase serve prints the instructor URL with its token at start.') : null,
  h('label', { for: 'instructor-token' }, 'Instructor token'),
  input,
  h('button', { type: 'submit', class: 'btn primary' }, 'Open')));
  input.focus();
}

/** Renders the instructor page into root. */
export async function instructorPage(root: HTMLElement): Promise<() => void> {
  document.title = 'Instructor · racecase';
  takeTokenFromHash();
  const main = h('main', { id: 'main', class: 'instructor' });
  replace(root, h('header', { class: 'topbar' }, brand(), h('span', { class: 'crumb-sep', 'aria-hidden': 'true' }, '/'),
    h('span', { class: 'top-title' }, 'Instructor')), main);
  let timer = 0;
  let stopped = false;
  const status = h('p', { class: 'instructor-status', role: 'status' });
  const holder = h('div', { class: 'instructor-list', 'aria-busy': 'true' });

  const refresh = async (): Promise<void> => {
    window.clearTimeout(timer);
    try {
      const dossiers = await instructorApi.dossiers();
      if (stopped) return;
      holder.setAttribute('aria-busy', 'false');
      replace(holder, dossierTable(dossiers, validate));
    } catch (err) {
      if (stopped) return;
      if (err instanceof ApiError && err.status === 401) {
        setInstructorToken(null);
        tokenForm(main, true, show);
        return;
      }
      const e = describeError(err);
      status.textContent = `${e.title}: ${e.detail}`;
    }
    window.clearTimeout(timer); // a refresh that overlapped this one may have set one
    timer = window.setTimeout(() => void refresh(), refreshMs);
  };
  const validate = (slug: string): void => {
    status.textContent = `Validating ${slug}…`;
    instructorApi.validate(slug).then(() => refresh(), (err) => {
      const e = describeError(err);
      status.textContent = `${e.title}: ${e.detail}`;
    });
  };
  function show(): void {
    replace(main,
      h('section', { class: 'instructor-head' },
        h('h1', null, 'Dossiers'),
        h('p', { class: 'lead' }, 'Each dossier with its lint problems and last validation. Dossiers of the --challenges folder reload within a second of an edit; Preview opens one exactly as a learner sees it.')),
      status, holder);
    void refresh();
  }

  if (instructorToken()) show();
  else tokenForm(main, false, show);
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
