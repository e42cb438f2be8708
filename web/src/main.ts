// Entry point: a tiny router over the History API. "/" is the catalog,
// "/dossiers/{slug}" a dossier with its workspace, "/playbooks" the
// learner's shelf of playbooks, "/instructor" the instructor page; the Go
// server answers index.html for each, so links can be shared and reloaded.
import { h, replace } from './lib/dom';
import { catalogPage } from './views/catalog';
import { brand } from './views/chrome';
import { dossierPage } from './views/dossier-page';
import { instructorPage } from './views/instructor';
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
  let done: () => void;
  if (path === '/' || path === '/index.html') {
    done = await catalogPage(root);
  } else if (path === '/playbooks') {
    done = await shelfPage(root);
  } else if (path === '/instructor') {
    done = await instructorPage(root);
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

window.addEventListener('popstate', () => {
  if (location.pathname + location.search !== rendered) void render();
});
void render();
