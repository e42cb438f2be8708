/**
 * Entry point of a rota pod: wires the database, the handler and the routes.
 *
 *   node src/main.js            serve on $PORT against the SQL gateway
 *   node src/main.js --demo     two pods and an in-memory rota, no network:
 *                               both payments engineers press "Go off call" at once
 */

import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';

import { loadConfig } from './config.js';
import { systemClock } from './clock.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createSqlGateway } from './db/sql-gateway.js';
import { createMemoryDatabase } from './db/memory-database.js';
import { createRotaHandler } from './rota/handler.js';
import { createRoutes } from './http/routes.js';
import { whoIsOnCall } from './rota/who-is-on-call.js';

const config = loadConfig(process.env);
const logger = createLogger({ clock: systemClock, write: (line) => process.stdout.write(`${line}\n`), level: config.logLevel });

if (process.argv.includes('--demo')) {
  const db = createMemoryDatabase({
    tables: {
      teams: [{ id: 'payments', name: 'Payments', channel: '#payments-oncall' }],
      rota: ['ana', 'ravi'].map((user) => ({ id: `${user}@payments`, team: 'payments', user, on_call: true })),
    },
    roundTrip: () => new Promise((resolve) => setTimeout(resolve, 2)),
  });
  const pods = ['2xkqp', 'v8lmn'].map((podId) => createRotaHandler({ podId, db, clock: systemClock, logger }));
  const outcomes = await Promise.all([
    pods[0].handle({ requestId: 'req_demo1', team: 'payments', user: 'ana', via: 'demo' }),
    pods[1].handle({ requestId: 'req_demo2', team: 'payments', user: 'ravi', via: 'demo' }),
  ]);
  console.log(`ana: ${outcomes[0]}, ravi: ${outcomes[1]}; on call now: ${(await whoIsOnCall(db, 'payments')).join(', ') || 'nobody'}`);
} else {
  const db = createSqlGateway({ url: config.sqlGatewayUrl, database: config.database, timeoutMs: config.statementTimeoutMs });
  const metrics = createMetrics();
  const handler = createRotaHandler({ podId: config.podId, db, clock: systemClock, logger, metrics });
  const route = createRoutes({ handler, db, metrics, newRequestId: () => `req_${randomUUID().slice(0, 8)}` });
  createServer(async (req, res) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    let body = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      res.writeHead(400).end();
      return;
    }
    const reply = await route(req, body);
    const json = typeof reply.body !== 'string';
    res.writeHead(reply.status, { 'content-type': json ? 'application/json' : 'text/plain' });
    res.end(json ? JSON.stringify(reply.body) : reply.body);
  }).listen(config.port, () => logger.info({ msg: 'listening', port: config.port }));
}
