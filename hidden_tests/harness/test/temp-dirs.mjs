// Temporary directories for harness tests, removed when the test process exits.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made = [];
process.on('exit', () => {
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new empty directory under the system's temporary directory, named `racecase-<name>-…`; gone once the process exits. */
export function tempDir(name) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `racecase-${name}-`));
  made.push(dir);
  return dir;
}
