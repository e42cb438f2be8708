// Marks the words of a phrase that a search matched, as the API lists them.
// Words are split the way the server splits them: runs of letters and
// digits, a single letter joined by a hyphen staying one word ("e-mail").

/** A piece of a phrase: text, and whether it is a matched word. */
export interface Part {
  text: string;
  mark: boolean;
}

const wordPattern = /\p{L}-\p{L}[\p{L}\p{N}]*|[\p{L}\p{N}]+/gu;

/** Cuts text into parts, marking each whole word that is one of words. */
export function highlightParts(text: string, words: string[]): Part[] {
  const wanted = new Set(words);
  const parts: Part[] = [];
  let last = 0;
  const push = (t: string, mark: boolean) => {
    if (!t) return;
    const prev = parts[parts.length - 1];
    if (prev && prev.mark === mark && !mark) prev.text += t;
    else parts.push({ text: t, mark });
  };
  for (const m of text.matchAll(wordPattern)) {
    const at = m.index ?? 0;
    push(text.slice(last, at), false);
    push(m[0], wanted.has(m[0]));
    last = at + m[0].length;
  }
  push(text.slice(last), false);
  return parts;
}
