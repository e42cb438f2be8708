/**
 * Process entry point: wires the clock, the shared store, Ratewire and the
 * HTTP server of one fx-rates process (WORKER_ID names it, as in the deploy).
 */

import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createRatewireClient } from './rates/ratewire-client.js';
import { createRemoteStore } from './store/remote-store.js';
import { createRatesServer } from './http/server.js';
import { createRatesWorker } from './worker.js';

const config = loadConfig();
const log = createLogger({ clock: systemClock, level: config.logLevel, write: (line) => process.stdout.write(`${line}\n`) });
const metrics = createMetrics();
const worker = createRatesWorker({
  workerId: process.env.WORKER_ID ?? 'local',
  store: createRemoteStore({ url: config.storeUrl }),
  provider: createRatewireClient({ url: config.ratewireUrl, apiKey: config.ratewireKey, timeoutMs: config.ratewireTimeoutMs }),
  clock: systemClock,
  config,
  log,
  metrics,
});

createRatesServer({ worker, metrics }).listen(config.port, () => log.info({ listening: config.port }));
