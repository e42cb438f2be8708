/**
 * Process entry point: wires the clock, store, provider, enrichment API and
 * shard board to this worker's polling slots. Importing it starts nothing.
 *
 *   node src/main.js --worker=outreach-1    one worker process (how production starts it)
 *   node src/main.js --demo                 every worker in this process, sample shards, sandbox provider
 *
 * Environment:
 *   KV_URL, KV_TOKEN                 store gateway; without KV_URL an in-memory store is used
 *   ENRICHMENT_URL, ENRICHMENT_TOKEN enrichment API; without ENRICHMENT_URL canned profiles are used
 *   LOG_LEVEL                        debug | info | warn | error (default info)
 *   CAMPAIGN_ID, SLOTS_PER_WORKER, CLAIM_LEASE_MINUTES, POLL_INTERVAL_SECONDS,
 *   ENRICHMENT_TIMEOUT_MS, SEND_TIMEOUT_MS    see src/config.js
 */

import { pathToFileURL } from 'node:url';
import { wallClock } from './clock.js';
import { loadConfig } from './config.js';
import { createEnrichmentClient, createSandboxEnrichment } from './enrichment/client.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createSandboxProvider } from './outreach/mailer.js';
import { createSentState } from './sent-state/sent-state.js';
import { createLocalBoard, createPoller } from './shards/poller.js';
import { createShardRunner } from './shards/shard-runner.js';
import { createMemoryStore } from './store/memory-store.js';
import { RemoteStore, createHttpTransport } from './store/remote-store.js';

/** Shards published by --demo. */
function demoShards(campaignId) {
  const people = [
    ['cand_7Qm2Lx', 'priya.raman@example.net', 'Priya'],
    ['cand_3Hd9Rw', 'tomasz.wolny@example.org', 'Tomasz'],
    ['cand_K8v1Ne', 'amara.osei@example.com', 'Amara'],
    ['cand_5Tz0Pb', 'lena.fischer@example.de', 'Lena'],
  ];
  const candidates = people.map(([candidateId, email, firstName]) => ({ candidateId, email, firstName }));
  return [
    { campaignId, shardId: 'shard-01', layout: 'v3', candidates: candidates.slice(0, 2) },
    { campaignId, shardId: 'shard-02', layout: 'v3', candidates: candidates.slice(2) },
  ];
}

/**
 * Runs until `signal` aborts.
 *
 * @param {object} options
 * @param {string[]} options.argv arguments after the script name
 * @param {Record<string, string | undefined>} options.env
 * @param {(line: string) => void} options.write output for log lines
 * @param {AbortSignal} options.signal
 * @param {import('./clock.js').Clock} [options.clock]
 */
export async function run({ argv, env, write, signal, clock = wallClock }) {
  const config = loadConfig(env);
  const logger = createLogger({ clock, write, level: env.LOG_LEVEL || 'info' });
  const metrics = createMetrics();

  const workerArg = argv.find((arg) => arg.startsWith('--worker='));
  const workers = workerArg ? [workerArg.slice('--worker='.length)] : [...config.workerNames];

  let store;
  if (env.KV_URL) {
    store = new RemoteStore({ transport: createHttpTransport({ url: env.KV_URL, token: env.KV_TOKEN }) });
  } else {
    logger.warn({ msg: 'KV_URL not set: claims and sent-state live in this process only' });
    store = createMemoryStore({ clock });
  }
  const enrichment = env.ENRICHMENT_URL
    ? createEnrichmentClient({ url: env.ENRICHMENT_URL, token: env.ENRICHMENT_TOKEN, timeoutMs: config.enrichmentTimeoutMs })
    : createSandboxEnrichment(clock);
  const provider = createSandboxProvider(write);

  const board = createLocalBoard({ sentState: createSentState({ store, clock }) });
  if (argv.includes('--demo')) for (const shard of demoShards(config.campaignId)) board.publish(shard);

  const pollers = workers.map((workerId) => createPoller({
    campaignId: config.campaignId,
    board,
    runner: createShardRunner({ workerId, store, provider, enrichment, clock, logger, metrics, config }),
    slots: config.slotsPerWorker,
    clock,
    pollIntervalMs: config.pollIntervalMs,
    logger: logger.with({ worker: workerId }),
  }));

  logger.info({ msg: 'starting', campaign: config.campaignId, workers: workers.join(','), slots: config.slotsPerWorker, claim_lease_ms: config.claimLeaseMs });
  for (const poller of pollers) poller.start();
  await new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', resolve, { once: true });
  });
  logger.info({ msg: 'stopping: no new shards; finishing the ones in progress', workers: workers.join(',') });
  await Promise.all(pollers.map((poller) => poller.stop()));
  write(metrics.render());
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
