/**
 * Entry point of a gateway pod.
 *
 *   node src/main.js            serves POST /v1/sms on PORT (default 8080)
 *   node src/main.js --demo     two pods in memory, one partner's burst of 8
 *                               requests at once, and what each was answered
 *
 * In production the quota store is QUOTA_STORE_URL and Meridian is
 * MERIDIAN_URL (see deploy/gateway.yaml).
 */

import { systemClock } from './clock.js';
import { configFromEnv } from './config.js';
import { createGateway } from './gateway.js';
import { createHttpServer } from './http/server.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createMemoryStore } from './persistence/memory-store.js';
import { createRemoteStore } from './persistence/remote-store.js';

const config = configFromEnv(process.env);
const logger = createLogger({ clock: systemClock, write: (line) => process.stdout.write(`${line}\n`), level: config.logLevel });

if (process.argv.includes('--demo')) {
  await demo();
} else {
  serve();
}

function serve() {
  const metrics = createMetrics();
  const store = createRemoteStore({ url: required('QUOTA_STORE_URL'), timeoutMs: config.storeTimeoutMs });
  const carrier = meridianOver(required('MERIDIAN_URL'), required('MERIDIAN_TOKEN'));
  const instanceId = process.env.HOSTNAME ?? 'sms-gateway-local';
  const gateway = createGateway({ instanceId, store, carrier, clock: systemClock, logger, metrics, config });
  const port = Number(process.env.PORT ?? 8080);
  createHttpServer({ gateway, clock: systemClock, metrics, logger }).listen(port, () => {
    logger.info({ msg: 'listening', port, pod: instanceId });
  });
}

/** Two pods, one store, a carrier that accepts everything; prints each answer. */
async function demo() {
  const store = createMemoryStore({ clock: systemClock, beforeOperation: () => new Promise((resolve) => setImmediate(resolve)) });
  let sent = 0;
  const carrier = { send: async () => ({ id: `mer_demo_${++sent}`, status: 'queued' }) };
  const pods = ['sms-gateway-demo-a', 'sms-gateway-demo-b']
    .map((instanceId) => createGateway({ instanceId, store, carrier, clock: systemClock, logger, config }));
  const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => pods[i % 2].handle({
    requestId: `r-demo-${i + 1}`, partnerId: 'lindqvist-dental', to: '+46701234567', text: `Reminder ${i + 1}`,
  })));
  for (const answer of answers) console.log(`${answer.requestId} -> ${answer.status}`);
  console.log(`sent to Meridian: ${sent} (lindqvist-dental's quota: 5 a window)`);
}

function meridianOver(url, token) {
  return {
    async send(submission) {
      const response = await fetch(`${url}/v2/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(submission),
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) throw new Error(`Meridian answered ${response.status}`);
      return response.json();
    },
  };
}

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
