// pacedPolls: a request that waits for something in a remote looks again at
// most as often as the fault model's min_poll_interval allows. A call made the
// moment one of its timers fired is a poll; calls made straight after an answer
// are not.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inlineRepo, subject } from './inline.mjs';
import { runHidden } from '../hidden.mjs';

/** A fault model whose store a waiting request may call at most every `everyMs`. */
const model = (everyMs) => ({
  workers: 1,
  remotes: { store: { latencyMs: [0, 10], waits: [], timeoutMs: null, minPollIntervalMs: everyMs, failures: [] } },
  delivery: { semantics: 'once', redeliveryAfterMs: null, redeliveryUntilMs: null, duplicates: 'none', sameId: false },
  leases: [],
  timeouts: [],
  pauses: null,
  crashes: 'none',
});

const suite = {
  subject: subject({ store: { $: 'remote', name: 'store', methods: ['get', 'set'] } }),
  limits: { maxLatencyMs: 10 },
  scenarios: [{
    name: 'one request waits for a flag',
    deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
    tests: [{ name: 'the request looks at the store no more often than the model allows', property: 'pacedPolls' }],
  }],
};

/** A worker that looks for a flag three times, with `between` after each look. */
const waiter = (between) => inlineRepo({
  'src/worker.js': `import { setTimeout as sleep } from 'node:timers/promises';
    export function createWorker({ store }) {
      return { async handle({ job }) {
        for (let i = 0; i < 3; i++) { await store.get('flag:' + job); ${between} }
        return 'done';
      } };
    }`,
});

const run = (repoDir, faultModel) => runHidden({ suite, faultModel, repoDir, sandbox: true, outputLimitBytes: 1 << 20 });

test('a request that sleeps less than the interval between two looks fails pacedPolls, naming both calls', async () => {
  const results = await run(waiter('await sleep(20);'), model(50));
  const [result] = results.tests;
  assert.equal(result.status, 'fail', JSON.stringify(results));
  assert.match(result.message, /^a #1 called store at 0 ms, waited for a timer and called it again at 20 ms, 20 ms later: a request that waits for something there may call store at most every 50 ms/);
  assert.deepEqual(result.trace.filter((s) => s.highlight).map((s) => s.operation), ['get', 'timer', 'get']);
});

test('a request that sleeps the interval, or looks again straight after an answer, passes', async () => {
  for (const between of ['await sleep(50);', '']) {
    const results = await run(waiter(between), model(50));
    assert.equal(results.tests[0].status, 'pass', `${JSON.stringify(between)}: ${JSON.stringify(results)}`);
  }
});

test('pacedPolls without a poll interval in the fault model is a problem of the suite', async () => {
  await assert.rejects(() => run(waiter(''), model(null)), /pacedPolls needs a fault model in which some remote has a min_poll_interval/);
});
