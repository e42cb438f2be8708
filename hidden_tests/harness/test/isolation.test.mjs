// Every simulated worker is a process of its own, and every schedule a realm of
// its own: state kept anywhere process-wide neither coordinates two workers (as
// it would not in production) nor survives from one schedule into the next, and
// learner code cannot reach the worker process that hosts it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runHidden } from '../hidden.mjs';
import { tempDir } from './temp-dirs.mjs';

/** Places a fix might keep a table it believes every worker shares. */
const ROUTES = {
  globalThis: ['', 'globalThis.__table ??= {}'],
  'the process object': ['', 'process.__table ??= {}'],
  'node:process': ["import proc from 'node:process';", 'proc.__table ??= {}'],
  'a built-in module object': ["import events from 'node:events';", 'events.__table ??= {}'],
  'a built-in module namespace': ["import * as crypto from 'node:crypto';", 'crypto.webcrypto.__table ??= {}'],
  'an intrinsic prototype': ['', 'Object.prototype.__table ??= {}'],
  'Function.prototype': ['', 'Function.prototype.__table ??= {}'],
  'an intrinsic object': ['', 'Math.__table ??= {}'],
  'the global symbol registry': ['', "globalThis[Symbol.for('racecase.table')] ??= {}"],
  'a symbol-keyed intrinsic': ['', "Array[Symbol.for('racecase.table')] ??= {}"],
  'the console': ['', 'console.__table ??= {}'],
  'the Date intrinsic behind the virtual one': ['', 'Date.prototype.constructor.__table ??= {}'],
};

/** A suite whose only remote is a notifier; `property` judges every schedule. */
function suiteFor(property, scenario) {
  return {
    subject: {
      module: 'src/worker.js',
      factory: 'createWorker',
      method: 'handle',
      deps: {
        store: { $: 'remote', name: 'store', methods: ['incrBy'] },
        notifier: { $: 'remote', name: 'notifier', methods: ['send'] },
      },
      message: (job) => ({ job }),
      acked: () => true,
    },
    effects: [{ target: 'notifier', method: 'send', label: 'notification' }],
    claimKeys: '^lock:',
    properties: property ? { [property.name]: property.check } : {},
    scenarios: [scenario],
  };
}

function repoWith(source) {
  const dir = tempDir('isolation');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  fs.writeFileSync(path.join(dir, 'src/worker.js'), source);
  return dir;
}

const run = (suite, source) => runHidden({ suite, repoDir: repoWith(source), sandbox: true, outputLimitBytes: 1 << 20 });

for (const [route, [imports, table]] of Object.entries(ROUTES)) {
  test(`a table kept in ${route} does not coordinate two workers`, async () => {
    const source = `${imports}
      export function createWorker({ notifier }) {
        return {
          async handle({ job }) {
            const table = ${table};
            table.claimed ??= [];
            if (table.claimed.includes(job)) return 'skipped';
            table.claimed.push(job);
            await notifier.send(job);
            return 'sent';
          },
        };
      }`;
    const results = await run(suiteFor(null, {
      name: 'the same job delivered to two workers',
      deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-7', at: 0 }],
      tests: [{ name: 'one notification', property: 'exactlyOncePerJob' }],
    }), source);
    assert.equal(results.tests[0].status, 'fail', JSON.stringify(results));
    assert.match(results.tests[0].message, /job-7 got 2 notifications \(by blue and green\)/);
  });

  test(`nothing kept in ${route} survives into the next schedule`, async () => {
    const source = `${imports}
      export function createWorker({ store, notifier }) {
        return {
          async handle({ job }) {
            const table = ${table};
            table.calls = (table.calls ?? 0) + 1;
            await store.incrBy('handled', 1);
            await notifier.send(job, table.calls);
            return 'sent';
          },
        };
      }`;
    const firstCall = {
      name: 'firstCall',
      check: {
        end(world) {
          const late = world.sends.find((s) => s.args[1] !== 1);
          if (late) world.violate('firstCall', `${late.worker} saw ${late.args[1]} calls in one schedule`);
        },
      },
    };
    const results = await run(suiteFor(firstCall, {
      name: 'two jobs on two workers',
      deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }, { worker: 'green', job: 'job-8', at: 0 }],
      tests: [{ name: 'every schedule starts afresh', property: 'firstCall' }],
    }), source);
    assert.equal(results.status, 'pass', JSON.stringify(results));
    assert.ok(results.tests[0].schedules > 1, 'the test must explore more than one schedule');
  });
}

test('learner code cannot reach the process that hosts it, however it tries', async () => {
  const source = `
    // Each probe reports what it reached; "host" would mean the worker process itself.
    const reached = (value) => (value && typeof value.binding === 'function' ? 'host' : 'contained');
    const viaConstructor = (value) => {
      try { return reached(value.constructor.constructor('return process')()); } catch { return 'contained'; }
    };
    // Calls edge() with less and less stack left, so that some call overflows inside
    // whatever code edge() reaches; returns an error from another realm if one arrives.
    function overflowAt(edge) {
      let max = 0;
      const measure = () => { max += 1; measure(); };
      try { measure(); } catch { /* the stack's depth is known now */ }
      let first;
      for (let room = 0; room < 300; room++) {
        const at = (n) => {
          if (n > 0) return at(n - 1);
          try { edge(); } catch (error) { if (!(error instanceof Error)) return error; first ??= error; }
          return undefined;
        };
        try {
          const foreign = at(max - room);
          if (foreign) return foreign;
        } catch { /* overflowed before reaching edge() */ }
      }
      return first;
    }
    const probes = {
      globalConstructor: () => viaConstructor(globalThis),
      functionThis: () => reached(Function('return this')().process),
      bridgeOverflow: () => viaConstructor(overflowAt(() => console.log(''))),
      stackOverflow: () => viaConstructor(overflowAt(() => new Error('x').stack)),
      importOverflow: () => viaConstructor(overflowAt(() => import('node:fs'))),
      rejectOverflow: () => viaConstructor(overflowAt(() => Promise.reject(new Error('x')).catch(() => {}))),
      failedImport: async () => { try { await import('node:nope'); return 'contained'; } catch (error) { return viaConstructor(error); } },
    };
    export function createWorker({ notifier }) {
      return {
        async handle({ job }) {
          const outcome = {};
          for (const [name, probe] of Object.entries(probes)) outcome[name] = await probe();
          await notifier.send(job, outcome);
          return 'sent';
        },
      };
    }`;
  const contained = {
    name: 'contained',
    check: {
      end(world) {
        for (const send of world.sends) {
          const escaped = Object.entries(send.args[1]).filter(([, how]) => how !== 'contained');
          if (escaped.length > 0) world.violate('contained', `reached the host by ${escaped.map(([name]) => name).join(', ')}`);
        }
      },
    },
  };
  const results = await run(suiteFor(contained, {
    name: 'one job',
    deliveries: [{ worker: 'blue', job: 'job-7', at: 0 }],
    tests: [{ name: 'nothing escapes', property: 'contained' }],
  }), source);
  assert.equal(results.status, 'pass', JSON.stringify(results));
});
