// Entry point: a tiny router over the History API. "/" is the catalog,
// "/dossiers/{slug}" a dossier with its workspace, "/playbooks" the
// learner's shelf of playbooks, "/join/{code}" a cohort's join page,
// "/instructor" the instructor page with "/instructor/cohorts/{id}" (a
// cohort's progress) and "/instructor/workspaces/{id}" (a learner's
// workspace, read-only); the Go server answers index.html for each, so
// links can be shared and reloaded.
import { h, replace } from './lib/dom';
import { renderEvent } from './lib/nav';
import { catalogPage } from './views/catalog';
import { brand } from './views/chrome';
import { dossierPage } from './views/dossier-page';
import { instructorPage } from './views/instructor';
import { cohortPage } from './views/instructor-class';
import { inspectPage } from './views/instructor-workspace';
import { joinPage } from './views/join';
import { shelfPage } from './views/shelf';

const root = document.getElementById('app')!;
let cleanup: (() => void) | null = null;
let generation = 0;

/** The path and query last rendered: a link within the page (#…) keeps them. */
let rendered = '';

async function render(): Promise<void> {
  const mine = ++generation;
  rendered = location.pathname + location.search;
  cleanup?.();
  cleanup = null;
  document.body.classList.remove('focus-mode');
  const path = location.pathname;
  const m = /^\/dossiers\/([^/]+)\/?$/.exec(path);
  let sub: RegExpExecArray | null;
  let done: () => void;
  if (path === '/' || path === '/index.html') {
    done = await catalogPage(root);
  } else if (path === '/playbooks') {
    done = await shelfPage(root);
  } else if (path === '/instructor') {
    done = await instructorPage(root);
  } else if ((sub = /^\/instructor\/cohorts\/([^/]+)\/?$/.exec(path))) {
    done = await cohortPage(root, decodeURIComponent(sub[1]));
  } else if ((sub = /^\/instructor\/workspaces\/([^/]+)\/?$/.exec(path))) {
    done = await inspectPage(root, decodeURIComponent(sub[1]));
  } else if ((sub = /^\/join\/([^/]+)\/?$/.exec(path))) {
    done = await joinPage(root, decodeURIComponent(sub[1]));
  } else if (m) {
    done = await dossierPage(root, decodeURIComponent(m[1]));
  } else {
    document.title = 'Not found · racecase';
    replace(root, h('header', { class: 'topbar' }, brand()),
      h('main', { id: 'main', class: 'catalog' }, h('div', { class: 'error-card', role: 'alert' },
        h('h1', null, 'Page not found'), h('p', null, `Nothing lives at ${path}.`),
        h('a', { href: '/', 'data-link': true, class: 'btn secondary' }, 'Back to the catalog'))));
    done = () => {};
  }
  if (mine === generation) cleanup = done;
  else done();
}

/** Follows in-app links without reloading the page. */
document.addEventListener('click', (e) => {
  const a = (e.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  if (url.pathname !== location.pathname) history.pushState(null, '', url.pathname);
  void render();
  window.scrollTo(0, 0);
});

window.addEventListener(renderEvent, () => {
  void render();
  window.scrollTo(0, 0);
});

window.addEventListener('popstate', () => {
  if (location.pathname + location.search !== rendered) void render();
});
void render();
