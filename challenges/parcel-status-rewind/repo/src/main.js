/**
 * Process entry point: wires the clock, the tracking store, the queue poller
 * and the metrics endpoint of one tracker process (TRACKER_ID names it, as in
 * the deploy).
 */

import { createServer } from 'node:http';

import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { createTracker } from './consumer.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createPoller } from './queue/poller.js';
import { createRemoteStore } from './store/remote-store.js';

const config = loadConfig();
const log = createLogger({ clock: systemClock, level: config.logLevel, write: (line) => process.stdout.write(`${line}\n`) });
const metrics = createMetrics();
const tracker = createTracker({
  trackerId: process.env.TRACKER_ID ?? 'local',
  store: createRemoteStore({ url: config.storeUrl }),
  clock: systemClock,
  log,
  metrics,
});

createServer((req, res) => {
  res.writeHead(req.url === '/metrics' ? 200 : 404, { 'content-type': 'text/plain' });
  res.end(req.url === '/metrics' ? `${metrics.text()}\n` : '');
}).listen(config.metricsPort);

createPoller({ queueUrl: config.queueUrl, tracker, concurrency: config.concurrency, visibilityTimeoutMs: config.visibilityTimeoutMs, log }).run();
