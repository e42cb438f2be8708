/**
 * Process entry point: wires the real clock, store, provider and queue to the
 * worker pool. Importing this module starts nothing; only running it does.
 *
 *   node src/main.js                  all slots in this process, local queue
 *   node src/main.js --slot=green     one slot (how production starts each process)
 *   node src/main.js --demo           also publish a few sample jobs to the local queue
 *
 * Environment:
 *   KV_URL, KV_TOKEN       remote store gateway; without KV_URL an in-memory store is used
 *   LOG_LEVEL              debug | info | warn | error (default info)
 *   WORKER_CONCURRENCY, VISIBILITY_TIMEOUT_SECONDS, LOCK_TTL_SECONDS, POLL_INTERVAL_MS
 *                          see src/config.js
 */

import { pathToFileURL } from 'node:url';
import { systemClock } from './clock.js';
import { loadConfig, slotNames } from './config.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createSandboxProvider } from './notifications/service.js';
import { createMemoryStore } from './persistence/memory-store.js';
import { RemoteStore, createHttpTransport } from './persistence/remote-store.js';
import { createDeliveryQueue } from './queue/delivery.js';
import { createConsumer } from './worker/consumer.js';
import { createWorkerPool } from './worker/pool.js';

/** Sample jobs published by --demo. */
const DEMO_JOBS = [
  { jobId: 'job-demo-1', payload: { orderId: 'SO-104233', recipient: 'ada@example.com', carrier: 'dhl', trackingNumber: 'JD014600006281230704' } },
  { jobId: 'job-demo-2', payload: { orderId: 'SO-104234', recipient: 'grace@example.com', carrier: 'postnl', trackingNumber: '3SABCD1234567' } },
];

/**
 * Runs the worker until `signal` aborts.
 *
 * @param {object} options
 * @param {string[]} options.argv command-line arguments (without node and the script)
 * @param {Record<string, string | undefined>} options.env environment variables
 * @param {(line: string) => void} options.write output for log lines
 * @param {AbortSignal} options.signal aborting it stops the pool gracefully
 * @param {import('./clock.js').Clock} [options.clock]
 * @returns {Promise<void>} resolves once every slot has stopped
 */
export async function run({ argv, env, write, signal, clock = systemClock }) {
  const config = loadConfig(env);
  const logger = createLogger({ clock, write, level: env.LOG_LEVEL || 'info' });
  const metrics = createMetrics();

  const slotArg = argv.find((arg) => arg.startsWith('--slot='));
  const slots = slotArg ? [slotArg.slice('--slot='.length)] : slotNames(config);

  let store;
  if (env.KV_URL) {
    store = new RemoteStore({ transport: createHttpTransport({ url: env.KV_URL, token: env.KV_TOKEN }) });
  } else {
    logger.warn({ msg: 'KV_URL not set: using an in-memory store (locks and sent-records are local to this process)' });
    store = createMemoryStore({ clock });
  }

  const provider = createSandboxProvider(write);
  const queue = createDeliveryQueue({ clock, visibilityTimeoutMs: config.visibilityTimeoutMs });
  if (argv.includes('--demo')) {
    for (const job of DEMO_JOBS) await queue.publish(job);
  }

  const pool = createWorkerPool({
    queue,
    slots,
    clock,
    logger,
    metrics,
    pollIntervalMs: config.pollIntervalMs,
    consumerFor: (workerId) => createConsumer({ workerId, store, provider, clock, logger, metrics, config }),
  });

  logger.info({
    msg: 'starting',
    queue: config.queueName,
    slots: slots.join(','),
    visibility_ms: config.visibilityTimeoutMs,
    lock_ttl_ms: config.lockTtlMs,
  });
  pool.start();
  await new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', resolve, { once: true });
  });
  await pool.stop();
  write(metrics.render());
  write(Object.entries(queue.stats()).map(([name, value]) => `${name} = ${value}`).join('\n'));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const controller = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => controller.abort());
  run({
    argv: process.argv.slice(2),
    env: process.env,
    write: (line) => process.stdout.write(`${line}\n`),
    signal: controller.signal,
  }).catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    process.exitCode = 1;
  });
}
