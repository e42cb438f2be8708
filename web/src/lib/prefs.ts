// Small preferences kept in this browser (pane sizes, open tabs): read and
// written as JSON under one key each, and harmless when storage is off.

/** Reads a preference, or undefined when it is absent or unreadable. */
export function loadPref<T>(key: string): T | undefined {
  try {
    const raw = localStorage.getItem(`racecase.${key}`);
    return raw === null ? undefined : (JSON.parse(raw) as T);
  } catch {
    return undefined;
  }
}

/** Writes a preference; without storage it lasts for this page only. */
export function savePref(key: string, value: unknown): void {
  try {
    localStorage.setItem(`racecase.${key}`, JSON.stringify(value));
  } catch {
    // Storage may be disabled or full.
  }
}
