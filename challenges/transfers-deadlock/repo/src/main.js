/**
 * Process entry point: one ledger-transfers pod. Importing this module starts
 * nothing; running it starts the HTTP server.
 *
 *   node src/main.js            production wiring (LOCKS_URL, KV_URL, JOURNAL_URL, FRAUD_URL)
 *   node src/main.js --local    in-memory store, locks and journal, fraud screening off,
 *                               seeded with two demo wallets
 *
 *   curl -s localhost:8080/v1/transfers -d '{"id":"trf_demo1","from":"wal-104217","to":"wal-220391","amountCents":2500}'
 *   curl -s localhost:8080/v1/transfers/trf_demo1/send-back -d '{"id":"trf_demo2"}'
 *
 * Environment: PORT, LOCK_POOL_SIZE, FRAUD_TIMEOUT_MS (see src/config.js),
 * POD_NAME, LOG_LEVEL, and the service URLs and tokens of deploy/ledger.yaml.
 */

import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { wallClock } from './clock.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createTransferRoutes } from './http/transfers.js';
import { createTransferService } from './transfers/service.js';
import { allowAll, createFraudScreen } from './transfers/fraud-screen.js';
import { createJournalClient, createMemoryJournal } from './ledger/journal.js';
import { MemoryStore } from './persistence/memory-store.js';
import { RemoteStore, createHttpTransport } from './persistence/remote-store.js';
import { LockServiceClient } from './persistence/lock-service.js';
import { MemoryLockServer } from './persistence/memory-locks.js';

const LOCAL_ACCOUNTS = { 'balance:wal-104217': '12500', 'balance:wal-220391': '4000', 'balance:sav-104217': '30000' };

/**
 * Wires a pod and returns its HTTP server (not yet listening).
 * @param {{ argv: string[], env: Record<string, string | undefined>, write: (line: string) => void, clock?: import('./clock.js').Clock }} options
 */
export function createPod({ argv, env, write, clock = wallClock }) {
  const config = loadConfig(env);
  const logger = createLogger({ clock, write, level: env.LOG_LEVEL || 'info' });
  const metrics = createMetrics();
  const podId = env.POD_NAME || 'ledger-local';
  const local = argv.includes('--local');

  const store = local
    ? new MemoryStore({ clock, initial: LOCAL_ACCOUNTS })
    : new RemoteStore({ transport: createHttpTransport({ url: env.KV_URL, token: env.KV_TOKEN }) });
  const locks = local
    ? new MemoryLockServer()
    : new LockServiceClient({ transport: grpcLockTransport(env.LOCKS_URL), poolSize: config.lockPoolSize });
  const journal = local ? createMemoryJournal() : createJournalClient({ url: env.JOURNAL_URL, token: env.JOURNAL_TOKEN });
  const fraud = local ? allowAll : createFraudScreen({ url: env.FRAUD_URL, timeoutMs: config.fraudTimeoutMs });

  // One service per request, holding its locks in its own ledger-locks session.
  const serviceFor = (requestId) => createTransferService({
    podId, store, locks: locks.session(`${podId}/${requestId}`), journal, clock, logger, metrics,
  });
  const handle = createTransferRoutes({ serviceFor, fraud, clock, logger: logger.with({ pod: podId }), metrics });

  const server = http.createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    let parsed;
    try {
      parsed = body === '' ? {} : JSON.parse(body);
    } catch {
      parsed = null;
    }
    const url = new URL(req.url ?? '/', 'http://pod');
    const reply = url.pathname === '/metrics'
      ? { status: 200, body: { metrics: metrics.render() } }
      : await handle({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body: parsed });
    res.writeHead(reply.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(reply.body));
  });
  return { server, config, logger };
}

/** The production lock transport is generated gRPC code, not part of this repository. */
function grpcLockTransport(url) {
  if (!url) throw new Error('LOCKS_URL is not set (use --local to run without ledger-locks)');
  return async () => {
    throw new Error(`ledger-locks transport for ${url} is provided by the platform image`);
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { server, config, logger } = createPod({
    argv: process.argv.slice(2),
    env: process.env,
    write: (line) => process.stdout.write(`${line}\n`),
  });
  server.listen(config.port, () => logger.info({ msg: 'listening', port: config.port }));
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close());
}
