// The frame of every instructor page: the top bar linking to the
// instructor's home, and the token (asked for when the tab has none, or asked for
// again when the API refuses it). Each page polls its data every two
// seconds, so runs, joins and validations show as they happen.
import { ApiError, describeError } from '../lib/api';
import { h, replace } from '../lib/dom';
import { instructorToken, setInstructorToken, takeTokenFromHash } from '../lib/instructor-api';
import { brand } from './chrome';

/** How often an instructor page reads its data again. */
export const refreshMs = 2000;

/** What an instructor page gets from the shell. */
export interface InstructorFrame {
  /** Where the page renders. */
  main: HTMLElement;
  /** Shows an error as the page's status line; null clears it. */
  say(err: unknown): void;
  /** Calls load now and then every refreshMs until the page is left; a
   * refused token brings the token form back. */
  poll(load: () => Promise<void>): void;
}

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

/** Renders an instructor page titled title into root; page builds its body. */
export function instructorShell(root: HTMLElement, title: string, page: (f: InstructorFrame) => void): () => void {
  document.title = `${title} · Instructor · racecase`;
  takeTokenFromHash();
  const main = h('main', { id: 'main', class: 'instructor' });
  replace(root, h('header', { class: 'topbar' }, brand(), h('span', { class: 'crumb-sep', 'aria-hidden': 'true' }, '/'),
    h('a', { class: 'top-title', href: '/instructor', 'data-link': true }, 'Instructor')), main);
  let timer = 0;
  let stopped = false;
  const status = h('p', { class: 'instructor-status', role: 'status' });
  const refused = () => {
    window.clearTimeout(timer);
    setInstructorToken(null);
    tokenForm(main, true, start);
  };
  const frame: InstructorFrame = {
    main,
    say(err) {
      if (err === null) {
        status.textContent = '';
        return;
      }
      const e = describeError(err);
      status.textContent = `${e.title}: ${e.detail}`;
    },
    poll(load) {
      const tick = async (): Promise<void> => {
        window.clearTimeout(timer);
        try {
          await load();
        } catch (err) {
          if (stopped) return;
          if (err instanceof ApiError && err.status === 401) {
            refused();
            return;
          }
          frame.say(err);
        }
        if (stopped) return;
        window.clearTimeout(timer); // a tick that overlapped this one may have set one
        timer = window.setTimeout(() => void tick(), refreshMs);
      };
      void tick();
    },
  };
  function start(): void {
    replace(main, status);
    page(frame);
  }
  if (instructorToken()) start();
  else tokenForm(main, false, start);
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
