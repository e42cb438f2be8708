/**
 * The HTTP face of a process: GET /rates/<currency>?request=<id> for the
 * checkout pages, /healthz for the load balancer, /metrics for the agent.
 */

import { createServer } from 'node:http';

/**
 * Creates the server (not yet listening).
 * @param {{ worker: ReturnType<import('../worker.js').createRatesWorker>, metrics: ReturnType<import('../metrics.js').createMetrics> }} deps
 * @returns {import('node:http').Server}
 */
export function createRatesServer({ worker, metrics }) {
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fx-rates');
    const reply = (status, body, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(type === 'application/json' ? JSON.stringify(body) : body);
    };
    if (url.pathname === '/healthz') return reply(200, { ok: true });
    if (url.pathname === '/metrics') return reply(200, metrics.render(), 'text/plain');
    const match = /^\/rates\/([A-Za-z]{3})$/.exec(url.pathname);
    if (req.method !== 'GET' || !match) return reply(404, { error: 'not found' });
    try {
      const answer = await worker.handle({ requestId: url.searchParams.get('request') ?? '-', currency: match[1] });
      return reply(answer.status === 'ok' ? 200 : 503, answer);
    } catch (error) {
      return reply(400, { error: error.message });
    }
  });
}
