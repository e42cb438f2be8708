// The dossier's fault model as a suite receives it: a suite that exports a
// function gets it beside the service kit, frozen, and a run builds its world
// from it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineRepo, subject } from './inline.mjs';
import { runHidden } from '../hidden.mjs';
import { materializeSuite } from '../suite.mjs';

const MODEL = {
  workers: 2,
  remotes: { store: { latencyMs: [0, 1000], waits: [], timeoutMs: null, failures: [] } },
  delivery: { semantics: 'at-least-once', redeliveryAfterMs: 5000, redeliveryUntilMs: null, duplicates: 'overlapping', sameId: true },
  leases: [{ name: 'job lock', key: 'lock:<jobId>', ttlMs: 30_000, clock: 'store' }],
  timeouts: [],
  pauses: null,
  crashes: 'anywhere',
};

test('a suite that exports a function gets the fault model, frozen, and null without one', () => {
  let got;
  materializeSuite((kit) => { got = kit; return {}; }, structuredClone(MODEL));
  assert.deepEqual(got.faultModel, MODEL);
  assert.ok(got.services, 'the service kit is still there');
  assert.throws(() => { got.faultModel.leases[0].ttlMs = 1; }, TypeError, 'a suite could change the model');
  materializeSuite((kit) => { got = kit; return {}; });
  assert.equal(got.faultModel, null);
});

test('a run hands the fault model to the suite, which builds its scenarios from it', async () => {
  const suite = ({ faultModel }) => ({
    subject: subject({ store: { $: 'remote', name: 'store', methods: ['get', 'set'] } }),
    limits: { maxLatencyMs: faultModel.remotes.store.latencyMs[1] },
    scenarios: [{
      name: 'redelivered at the model\'s pace',
      redeliver: { everyMs: faultModel.delivery.redeliveryAfterMs, maxAttempts: 2 },
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
      tests: [{ name: 'every delivery is acked', property: 'allDeliveriesAcked' }],
    }],
  });
  const repoDir = inlineRepo({
    'src/worker.js': `export function createWorker({ store }) {
      return { async handle({ job }) { await store.set(job, 'seen'); return 'done'; } };
    }`,
  });
  const results = await runHidden({ suite, faultModel: structuredClone(MODEL), repoDir, sandbox: true, outputLimitBytes: 1 << 20 });
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
  await assert.rejects(() => runHidden({ suite, repoDir, sandbox: true, outputLimitBytes: 1 << 20 }), TypeError,
    'without a model the suite cannot read it');
});
