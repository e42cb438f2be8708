// Tries to read files outside the repository: the hidden tests, the system.
import fs from 'node:fs';
export function createLock() {
  return {
    async acquire() { fs.readFileSync('/etc/hostname'); return 'x'; },
    async release() {},
  };
}
