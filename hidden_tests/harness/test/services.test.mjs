// Stateful services as a suite sees them: what the kit's services count as
// effects, their latency, their labels in messages, and the service calls that
// are fault points for a scenario's crash and stall.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runWorker, subject } from './inline.mjs';
import { serviceKit } from '../service-kit.mjs';
import { checkSuite } from '../suite.mjs';

test('a rate-limited call that its reply refuses is not counted as an effect', async () => {
  const suite = ({ services }) => ({
    subject: subject({ mail: { $: 'remote', name: 'mail', methods: ['send'] } }),
    // The provider is down for its first second: its reply refuses with a 503.
    services: {
      mail: services.rateLimited({ perSecond: 10, reply: (args, call) => (call.at < 1000 ? call.reject('503 Service Unavailable') : { ok: true }) }),
    },
    scenarios: [{
      name: 'one e-mail, retried once the provider is back',
      deliveries: [{ worker: 'blue', job: 'a', at: 0 }],
      tests: [{ name: 'the e-mail is sent once', property: 'exactlyOncePerJob' }],
    }],
  });
  const results = await runWorker(suite, `
    export function createWorker({ clock, mail }) {
      return {
        async handle({ job }) {
          for (;;) {
            try { await mail.send(job); return 'done'; } catch { await clock.sleep(1000); }
          }
        },
      };
    }`);
  assert.equal(results.status, 'pass', JSON.stringify(results, null, 1));
});
