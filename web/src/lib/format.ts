// Formatting shared by the views.

/** 75 → "01:15"; 3700 → "1:01:40". */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return hh > 0 ? `${hh}:${two(mm)}:${two(ss)}` : `${two(mm)}:${two(ss)}`;
}

/** "hard" → "Hard". */
export function capitalise(word: string): string {
  return word ? word[0].toUpperCase() + word.slice(1) : word;
}

/** "codebase-incident" → "Codebase incident". */
export function kindLabel(kind: string): string {
  return capitalise(kind.replace(/[-_]+/g, ' '));
}

/** "codebase-incident" → "Codebase Incidents", the heading of its shelf. */
export function kindShelf(kind: string): string {
  return kind.split(/[-_]+/).map(capitalise).join(' ') + 's';
}

/** A metric value with its unit: 2 → "2", 0.25 s → "0.25 s". */
export function metricValue(value: number, unit?: string): string {
  const v = Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
  return unit ? `${v} ${unit}` : v;
}

/** The last segment of a path. */
export function basename(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** Milliseconds as "0.9 s" or "120 ms". */
export function duration(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${ms} ms`;
}
