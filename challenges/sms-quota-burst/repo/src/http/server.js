/**
 * The HTTP routes of a gateway pod:
 *
 *   POST /v1/sms    one message (see src/gateway.js); the edge adds X-Partner-Id
 *   GET  /healthz   liveness
 *   GET  /metrics   the counters, "name = value" lines
 */

import { createServer } from 'node:http';

import { rateLimitHeaders } from './rate-limit-headers.js';

/** Largest request body read, in bytes. */
const MAX_BODY = 16 * 1024;

/**
 * @param {object} deps
 * @param {{ handle(body: unknown): Promise<{ status: number, limit?: number, remaining?: number, resetAt?: number }> }} deps.gateway
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../metrics.js').Metrics} deps.metrics
 * @param {import('../logger.js').Logger} deps.logger
 */
export function createHttpServer({ gateway, clock, metrics, logger }) {
  return createServer(async (req, res) => {
    try {
      if (req.method === 'GET' && req.url === '/healthz') return send(res, 200, { ok: true });
      if (req.method === 'GET' && req.url === '/metrics') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        return res.end(`${metrics.render()}\n`);
      }
      if (req.method !== 'POST' || req.url !== '/v1/sms') return send(res, 404, { error: 'not found' });
      const body = JSON.parse(await readBody(req));
      const answer = await gateway.handle({ ...body, partnerId: req.headers['x-partner-id'] });
      const headers = answer.limit === undefined ? {} : rateLimitHeaders(answer, clock.now(), answer.status);
      return send(res, answer.status, answer, headers);
    } catch (error) {
      logger.warn({ msg: 'request failed', error: error.message });
      return send(res, error instanceof SyntaxError ? 400 : 502, { error: error.message });
    }
  });
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new SyntaxError(`body larger than ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
