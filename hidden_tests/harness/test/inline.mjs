// Small repositories written inline by harness tests: a package.json and the
// files given, in a fresh temporary directory, run against a suite.

import fs from 'node:fs';
import path from 'node:path';
import { runHidden } from '../hidden.mjs';
import { tempDir } from './temp-dirs.mjs';

/** Writes `files` (path → source) into a new repository and returns its directory. */
export function inlineRepo(files) {
  const dir = tempDir('inline');
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  for (const [name, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), source);
  }
  return dir;
}

/** Runs `suite` against a repository of one module, src/worker.js. */
export function runWorker(suite, source) {
  return runHidden({ suite, repoDir: inlineRepo({ 'src/worker.js': source }), sandbox: true, outputLimitBytes: 1 << 20 });
}

/** The subject every inline suite uses: createWorker(deps).handle({ job, attempt }). */
export function subject(deps) {
  return {
    module: 'src/worker.js',
    factory: 'createWorker',
    method: 'handle',
    deps: { worker: { $: 'worker' }, clock: { $: 'clock' }, ...deps },
    message: (job, attempt) => ({ job, attempt }),
    acked: (outcome) => outcome === 'done',
  };
}

/**
 * A worker that takes the lease on 'file' from a lease service (1 s, retried
 * every 600 ms), writes the file with the fence `fence` (an expression of its
 * code: 'token' for the lease's token, '1', 'clock.now()'), and releases it;
 * a refused write ends the delivery.
 */
export function leaseHolder(fence) {
  return `
  export function createWorker({ worker, clock, leases, storage }) {
    return {
      async handle() {
        let token;
        while ((token = await leases.acquire('file', worker, 1000)) === null) await clock.sleep(600);
        try {
          await storage.write('file', 'written by ' + worker, ${fence});
        } catch {
          return 'done';
        }
        await leases.release('file', worker);
        return 'done';
      },
    };
  }`;
}
