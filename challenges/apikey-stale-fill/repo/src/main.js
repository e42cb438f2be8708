/**
 * Process entry point: wires the clock, the shared cache, the keys database and
 * the HTTP server of one gatekeeper process (WORKER_ID names it, as in the deploy).
 */

import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createKeysDb } from './keys/keys-db.js';
import { createRemoteStore } from './store/remote-store.js';
import { createGatekeeperServer } from './http/server.js';
import { createGatekeeper } from './worker.js';

const config = loadConfig();
const log = createLogger({ clock: systemClock, level: config.logLevel, write: (line) => process.stdout.write(`${line}\n`) });
const metrics = createMetrics();
const worker = createGatekeeper({
  workerId: process.env.WORKER_ID ?? 'local',
  store: createRemoteStore({ url: config.storeUrl }),
  db: createKeysDb({ url: config.keysDbUrl }),
  clock: systemClock,
  config,
  log,
  metrics,
});

createGatekeeperServer({ worker, metrics }).listen(config.port, () => log.info({ listening: config.port }));
