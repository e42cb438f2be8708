/**
 * Entry point. In production the command queue's consumer library calls
 * worker.handle() for each command and acknowledges it when handle()
 * resolves. `npm start -- --demo` runs two workers against the in-memory
 * database and bus instead, approving and cancelling a few returns.
 */

import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createReturnsWorker } from './worker.js';
import { createReturnsDbClient } from './db/returns-db.js';
import { createMemoryDb } from './db/memory-db.js';
import { createEventBusClient } from './bus/event-bus.js';
import { createMemoryBus } from './bus/memory-bus.js';

const config = loadConfig(process.env);
const logger = createLogger({ clock: systemClock, write: (line) => process.stdout.write(`${line}\n`), level: config.logLevel });

async function demo() {
  const db = createMemoryDb({ tables: { returns: [
    { id: 'RMA-1001', orderId: 'FO-55120', customer: 'c-881', amountCents: 8999, status: 'requested' },
    { id: 'RMA-1002', orderId: 'FO-55121', customer: 'c-102', amountCents: 2450, status: 'requested' },
  ] } });
  const bus = createMemoryBus();
  const workers = ['demo-a', 'demo-b'].map((workerId) => createReturnsWorker({ workerId, db, bus, clock: systemClock, logger }));
  await Promise.all([
    workers[0].handle({ id: 'cmd-1', type: 'return.approve', returnId: 'RMA-1001', agent: 'wh-ana' }),
    workers[1].handle({ id: 'cmd-2', type: 'return.cancel', returnId: 'RMA-1002' }),
  ]);
  await Promise.all(workers.map((w, i) => w.handle({ id: `tick-${i}`, type: 'housekeeping.tick' })));
  logger.info({ msg: 'demo done', returns: JSON.stringify(db.dump('returns').map((r) => `${r.id}:${r.status}`)), events: bus.events.length });
}

if (process.argv.includes('--demo')) {
  await demo();
} else {
  const db = createReturnsDbClient({ baseUrl: config.dbUrl, token: config.dbToken, timeoutMs: config.dbTimeoutMs });
  const bus = createEventBusClient({ baseUrl: config.busUrl, token: config.busToken, timeoutMs: config.busPublishTimeoutMs });
  const worker = createReturnsWorker({ workerId: config.workerId, db, bus, clock: systemClock, logger });
  // The queue's consumer library comes with the platform's base image, not from npm.
  const { consume } = await import('@fernhill/command-queue');
  consume({ queue: 'returns-commands', visibilityTimeoutMs: config.visibilityTimeoutMs, handle: (command) => worker.handle(command) });
}
