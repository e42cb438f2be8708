// The place in the learner's repository a traced call was made from
// ("src/locks/job-lock.js:42:11"), and the button that opens it in the
// editor. The results know nothing of the editor: the page hands them
// SourceLinks that do the opening and the marking.
import { h } from '../lib/dom';

/** A line (and column) of a file in the learner's repository. */
export interface Site {
  path: string;
  line: number;
  /** From 1; absent when only the line is known. */
  column?: number;
}

/** What the results may do with the learner's code. */
export interface SourceLinks {
  /** Opens the file in the editor at the site and moves focus there. */
  open(site: Site): void;
  /** Highlights the site's line in the editor when its file is open; null clears it. */
  mark(site: Site | null): void;
}

const siteShape = /^(.+?):(\d+)(?::(\d+))?$/;

/** Reads "path:line[:column]"; null when it is not one. */
export function parseSite(text: string | undefined): Site | null {
  const m = text ? siteShape.exec(text) : null;
  if (!m) return null;
  const line = Number(m[2]);
  if (line < 1) return null;
  return m[3] ? { path: m[1], line, column: Math.max(1, Number(m[3])) } : { path: m[1], line };
}

/** The site in words, as its button is named: "src/locks/job-lock.js line 42". */
export function siteName(site: Site): string {
  return `${site.path} line ${site.line}`;
}

/** The file's name without its folders. */
function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/**
 * A button that opens the site in the editor. It shows the file's name and
 * line; its accessible name adds the folders, so the shown text stays part
 * of the name.
 */
export function siteButton(site: Site, links: SourceLinks): HTMLButtonElement {
  return h('button', {
    type: 'button', class: 'site-link', 'aria-label': siteName(site), 'data-site': `${site.path}:${site.line}`,
    title: `Open ${site.path} at line ${site.line}${site.column ? `, column ${site.column}` : ''}`,
    onclick: () => links.open(site),
  }, `${baseName(site.path)} line ${site.line}`);
}
