// The worker processes a hidden run boots before its payload arrives, and the heap
// every worker process of a run is given. The supervisor loads this module, and only
// what it needs, before the rest of the harness: the workers then boot while the
// supervisor loads the rest and waits for the payload.

import { WorkerOptions } from './worker-link.mjs';
import { startSpares } from './worker-pool.mjs';
import { memoryLimitBytes } from './memory-facts.mjs';

/** A worker's JavaScript heap limit when no container limit applies (harness development). */
export const HOST_HEAP_MB = 512;
/**
 * Worker processes booted before the payload arrives: every suite so far runs two
 * workers at most; a scenario with more starts the rest when it needs them.
 */
const SPARE_WORKERS = 2;

/**
 * The heap a worker may use: inside a container, more than the container has, so
 * that a worker hoarding memory meets the kernel's limit (a fact the supervisor
 * can read) rather than V8's.
 */
export function workerHeapMb() {
  const limit = memoryLimitBytes();
  return limit ? Math.ceil((2 * limit) / (1 << 20)) : HOST_HEAP_MB;
}

/**
 * Boots worker processes for a hidden run whose payload has not arrived yet, so that
 * the run does not wait for them; pass them to runHidden, which owns them from then on.
 * @param {string} repoDir where the repository will be written
 */
export function startWorkersAhead(repoDir) {
  return startSpares(SPARE_WORKERS, new WorkerOptions({ repoDir, sandbox: true, heapMb: workerHeapMb() }));
}
