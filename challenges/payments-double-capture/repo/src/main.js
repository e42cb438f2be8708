/**
 * Process entry point: the real clock, Redis, Kestrel and an HTTP server in
 * front of createApp(). Importing this module starts nothing.
 *
 *   node src/main.js          serve on PORT (default 8080)
 *
 * Environment (see deploy/payments-api.yaml and src/config.js):
 *   INSTANCE_ID                          name in logs, e.g. api-0
 *   REDIS_GATEWAY_URL, REDIS_GATEWAY_TOKEN
 *                                        the shared Redis; without a URL an in-memory
 *                                        store is used (local to this process!)
 *   KESTREL_API_KEY, KESTREL_BASE_URL, KESTREL_TIMEOUT_MS
 *                                        Kestrel Pay; without a key a sandbox PSP answers
 *   KESTREL_WEBHOOK_SECRET, IDEMPOTENCY_TTL_HOURS, WEBHOOK_DEDUPE_TTL_DAYS, PORT, LOG_LEVEL
 */

import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { createApp } from './app.js';
import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { MemoryStore } from './persistence/memory-store.js';
import { RedisGatewayStore } from './persistence/remote-store.js';
import { createKestrelClient } from './psp/kestrel-client.js';
import { createSandboxPsp } from './psp/sandbox-psp.js';

/** Largest request body accepted, in bytes. */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * Starts the server and resolves with it once it listens.
 * @param {{ env: Record<string, string | undefined>, write: (line: string) => void, clock?: import('./clock.js').Clock }} options
 * @returns {Promise<http.Server>}
 */
export async function start({ env, write, clock = systemClock }) {
  const config = loadConfig(env);
  const logger = createLogger({ clock, write, level: env.LOG_LEVEL || 'info' });
  const metrics = createMetrics();

  let store;
  if (env.REDIS_GATEWAY_URL) {
    store = new RedisGatewayStore({ url: env.REDIS_GATEWAY_URL, token: env.REDIS_GATEWAY_TOKEN });
  } else {
    logger.warn('startup.memory_store', { note: 'REDIS_GATEWAY_URL not set: idempotency records are local to this process' });
    store = new MemoryStore({ clock });
  }
  const psp = env.KESTREL_API_KEY
    ? createKestrelClient({ baseUrl: config.kestrelBaseUrl, apiKey: env.KESTREL_API_KEY, timeoutMs: config.kestrelTimeoutMs })
    : createSandboxPsp({ clock });

  const app = createApp({
    instanceId: config.instanceId, store, psp, clock, config, webhookSecret: env.KESTREL_WEBHOOK_SECRET, logger, metrics,
  });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && url.pathname === '/metrics') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`${metrics.render()}\n`);
      return;
    }
    let rawBody = '';
    try {
      rawBody = await readBody(req);
    } catch (error) {
      res.writeHead(413, { 'content-type': 'text/plain' }).end(`${error.message}\n`);
      return;
    }
    let body = null;
    if (rawBody !== '') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        res.writeHead(400, { 'content-type': 'application/problem+json' })
          .end(JSON.stringify({ status: 400, code: 'invalid_json', detail: 'The body is not JSON.' }));
        return;
      }
    }
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value ?? '']));
    const response = await app.handle({ method: req.method ?? 'GET', path: url.pathname, headers, body, rawBody });
    res.writeHead(response.status, response.headers).end(JSON.stringify(response.body));
  });

  await new Promise((resolve) => server.listen(config.port, resolve));
  logger.info('startup.listening', { port: config.port, kestrel: config.kestrelBaseUrl, idempotency_ttl_ms: config.idempotencyTtlMs });
  return server;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks = [];
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error(`body larger than ${MAX_BODY_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server = await start({ env: process.env, write: (line) => process.stdout.write(`${line}\n`) });
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close());
}
