// Follows a workspace live over Server-Sent Events: each snapshot carries the
// files' versions and the latest runs, so the page can show edits pushed
// with git (or saved in another tab) and runs it did not start. The browser's
// EventSource reconnects by itself when the stream breaks.
import { api } from '../lib/api';
import type { Snapshot } from '../lib/types';

/** Calls onSnapshot with every snapshot of the workspace; returns the stop. */
export function followWorkspace(wsID: string, onSnapshot: (s: Snapshot) => void): () => void {
  const es = new EventSource(api.workspaceEventsURL(wsID));
  es.addEventListener('snapshot', (ev) => onSnapshot(JSON.parse((ev as MessageEvent).data) as Snapshot));
  return () => es.close();
}
