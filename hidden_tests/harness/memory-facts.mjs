// What the kernel says about memory: the container's limit and how many times
// its out-of-memory killer has struck. A worker that died is said to have run
// out of memory only on these facts (or on V8's own heap-limit abort), never on
// anything the learner's code printed.

import fs from 'node:fs';

/** Reads a file, or undefined when it does not exist here. */
function read(file) {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** The memory limit of this process's cgroup in bytes, or undefined when there is none. */
export function memoryLimitBytes() {
  const v2 = read('/sys/fs/cgroup/memory.max')?.trim();
  if (v2 && v2 !== 'max') return Number(v2);
  const v1 = Number(read('/sys/fs/cgroup/memory/memory.limit_in_bytes')?.trim());
  // cgroup v1 reports "no limit" as a huge number.
  return Number.isFinite(v1) && v1 > 0 && v1 < 2 ** 52 ? v1 : undefined;
}

/** How many processes the cgroup's OOM killer has killed so far, or undefined when unknown. */
export function oomKills() {
  for (const file of ['/sys/fs/cgroup/memory.events', '/sys/fs/cgroup/memory/memory.oom_control']) {
    const match = read(file)?.match(/^oom_kill (\d+)$/m);
    if (match) return Number(match[1]);
  }
  return undefined;
}
