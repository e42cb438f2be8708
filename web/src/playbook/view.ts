// A playbook as the learner reads it: the on-call card of a solved dossier,
// section by section in the order an engineer needs it at 3 a.m. The desk
// shows it beside the revealed root cause; the shelf shows every one.
import { h } from '../lib/dom';
import type { Playbook } from '../lib/types';

/** How a playbook is placed on its page. */
export interface PlaybookPlacement {
  /** Heading level of the playbook's sections (its title, when shown, is one above). */
  level: 3 | 4;
  /** Whether to show the dossier's title as the playbook's heading. */
  titled: boolean;
}

/** A heading of level n (2 to 5). */
function heading(n: number, text: string, id?: string): HTMLElement {
  return h(`h${Math.min(5, Math.max(2, n))}` as 'h2', { id }, text);
}

/** A titled section of a playbook. */
function section(level: number, cls: string, title: string, ...body: (HTMLElement | null)[]): HTMLElement {
  return h('section', { class: `pb-section pb-section-${cls}` }, heading(level, title), body);
}

/** A bulleted list of texts. */
function list(items: string[]): HTMLElement {
  return h('ul', { class: 'pb-list' }, items.map((t) => h('li', null, t)));
}

/** "2026-05-01T09:00:00Z" → "1 May 2026". */
function solvedDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The id of a playbook's article, for links into a page of several. */
export function playbookAnchor(slug: string): string {
  return `playbook-${slug}`;
}

/** Renders pb as an article. */
export function playbookView(pb: Playbook, place: PlaybookPlacement): HTMLElement {
  const n = place.level;
  const titleID = `${playbookAnchor(pb.slug)}-title`;
  return h('article', { class: 'playbook', id: playbookAnchor(pb.slug), 'data-slug': pb.slug, 'aria-labelledby': place.titled ? titleID : null, 'aria-label': place.titled ? null : 'On-call playbook' },
    place.titled ? h('header', { class: 'pb-head' },
      heading(n - 1, pb.title, titleID),
      h('p', { class: 'muted small' }, `Solved on ${solvedDate(pb.solved_at)}`)) : null,
    section(n, 'tldr', 'TL;DR', h('p', null, pb.tldr)),
    section(n, 'error', 'Error', h('pre', { class: 'pb-error' }, h('code', null, pb.error))),
    section(n, 'steps', 'Steps',
      h('ol', { class: 'pb-steps' }, pb.steps.map((s) => h('li', null,
        h('p', { class: 'pb-action' }, s.action),
        h('p', { class: 'pb-expected' }, h('span', { class: 'pb-expected-label' }, 'Expected: '), s.expected))))),
    section(n, 'use', 'Use this when', list(pb.use_when)),
    section(n, 'not-for', 'Not for this when',
      h('ul', { class: 'pb-list' }, pb.not_for.map((l) => h('li', null,
        l.when, ' ', h('strong', null, 'What it really is: '), l.really,
        l.dossier ? h('span', { class: 'pb-link' }, ' ',
          h('a', { href: `/dossiers/${encodeURIComponent(l.dossier.slug)}`, 'data-link': true, 'data-dossier': l.dossier.slug },
            `Open the dossier: ${l.dossier.title}`)) : null)))),
    section(n, 'variants', 'Variant phrasings',
      h('ul', { class: 'pb-list pb-variants' }, pb.variant_phrasings.map((v) => h('li', null, `“${v}”`)))),
    section(n, 'why', 'Why it happens', h('p', null, pb.why)),
    section(n, 'edges', 'Edge cases', list(pb.edge_cases)),
    pb.provenance.length ? section(n, 'provenance', 'Provenance',
      h('ul', { class: 'pb-list' }, pb.provenance.map((r) => h('li', null,
        h('a', { href: r.url, rel: 'noopener noreferrer', target: '_blank' }, r.title, h('span', { class: 'sr-only' }, ' (opens in a new tab)')))))) : null);
}
