// The CPU time a worker process has used, read from /proc/<pid>/stat. The
// supervisor reads it at every command it sends, so the file is opened once
// and re-read from its start each time: opening it per command cost more than
// the kernel's formatting of it.

import fs from 'node:fs';

/** Large enough for any /proc/<pid>/stat: 52 numeric fields and a 16-byte command name. */
const STAT_BYTES = 4096;

/** One process's CPU clock; every reading is undefined where /proc cannot be read. */
export class CpuClock {
  #fd;
  #buffer = Buffer.alloc(STAT_BYTES);

  /** @param {number | undefined} pid */
  constructor(pid) {
    try {
      this.#fd = pid === undefined ? undefined : fs.openSync(`/proc/${pid}/stat`, 'r');
    } catch {
      this.#fd = undefined;
    }
  }

  /**
   * The CPU time the process has used so far (user plus system), in
   * milliseconds. /proc counts in USER_HZ, which Linux fixes at 100 a second.
   * @returns {number | undefined}
   */
  ms() {
    if (this.#fd === undefined) return undefined;
    try {
      const length = fs.readSync(this.#fd, this.#buffer, 0, STAT_BYTES, 0);
      const stat = this.#buffer.toString('latin1', 0, length);
      // The command name (field 2) may hold spaces; utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      return Number.isFinite(ticks) ? ticks * 10 : undefined;
    } catch {
      return undefined;
    }
  }

  /** Closes the file; later readings are undefined. */
  close() {
    if (this.#fd === undefined) return;
    fs.closeSync(this.#fd);
    this.#fd = undefined;
  }
}
