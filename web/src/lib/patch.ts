// Reads the unified (git) patch the diff endpoint returns and rebuilds a
// file's original content from its current content, so "My changes" can show
// the two side by side without another API route.

/** One line of a hunk: its kind, text, and whether a newline ends it. */
interface HunkLine {
  kind: ' ' | '-' | '+';
  text: string;
  newline: boolean;
}

/** One @@ hunk. Starts are 1-based as in the patch. */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: HunkLine[];
}

/** The hunks of one file in a patch. */
export interface FilePatch {
  path: string;
  hunks: Hunk[];
}

const hunkHeader = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Strips git's a/ or b/ prefix (and quotes) from a header path. */
function headerPath(raw: string): string | null {
  let p = raw.trim().split('\t')[0];
  if (p.startsWith('"') && p.endsWith('"')) p = p.slice(1, -1);
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}

/** Splits a git patch into files and hunks. */
export function parsePatch(patch: string): FilePatch[] {
  const files: FilePatch[] = [];
  let file: FilePatch | null = null;
  let hunk: Hunk | null = null;
  let oldPath: string | null = null;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const m = /^diff --git "?a\/(.+?)"? "?b\/(.+?)"?$/.exec(line);
      file = { path: m ? m[2] : '', hunks: [] };
      files.push(file);
      hunk = null;
      oldPath = null;
      continue;
    }
    if (!file) continue;
    if (!hunk && line.startsWith('--- ')) {
      oldPath = headerPath(line.slice(4));
      continue;
    }
    if (!hunk && line.startsWith('+++ ')) {
      file.path = headerPath(line.slice(4)) ?? oldPath ?? file.path;
      continue;
    }
    const m = hunkHeader.exec(line);
    if (m) {
      hunk = {
        oldStart: Number(m[1]), oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]), newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      file.hunks.push(hunk);
      continue;
    }
    if (!hunk) continue;
    const kind = line[0];
    if (kind === ' ' || kind === '-' || kind === '+') {
      hunk.lines.push({ kind, text: line.slice(1), newline: true });
    } else if (kind === '\\') {
      const last = hunk.lines[hunk.lines.length - 1];
      if (last) last.newline = false;
    }
  }
  return files;
}

/** Splits text into lines that keep their "\n" (the last may lack it). */
function splitKeep(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/**
 * Rebuilds the original content of path from its current content by applying
 * the patch's hunks in reverse. A file the patch does not name is unchanged.
 */
export function originalOf(patch: string, path: string, current: string): string {
  const fp = parsePatch(patch).find((f) => f.path === path);
  if (!fp) return current;
  const lines = splitKeep(current);
  const out: string[] = [];
  let cursor = 0; // index into lines
  for (const h of fp.hunks) {
    const start = h.newLines === 0 ? h.newStart : h.newStart - 1;
    while (cursor < start && cursor < lines.length) out.push(lines[cursor++]);
    for (const l of h.lines) {
      if (l.kind === '+') continue;
      out.push(l.newline ? `${l.text}\n` : l.text);
    }
    cursor += h.newLines;
  }
  while (cursor < lines.length) out.push(lines[cursor++]);
  return out.join('');
}
