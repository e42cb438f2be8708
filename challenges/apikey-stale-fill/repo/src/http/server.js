/**
 * The HTTP face of a process: POST /v1/authorize for the API edge, PATCH and
 * DELETE /admin/keys/<keyId> for the admin console, /healthz for the load
 * balancer, /metrics for the agent.
 */

import { createServer } from 'node:http';

/**
 * Creates the server (not yet listening).
 * @param {{ worker: ReturnType<import('../worker.js').createGatekeeper>, metrics: ReturnType<import('../metrics.js').createMetrics> }} deps
 * @returns {import('node:http').Server}
 */
export function createGatekeeperServer({ worker, metrics }) {
  return createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://gatekeeper');
    const reply = (status, body, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(type === 'application/json' ? JSON.stringify(body) : body);
    };
    if (url.pathname === '/healthz') return reply(200, { ok: true });
    if (url.pathname === '/metrics') return reply(200, metrics.render(), 'text/plain');
    const requestId = req.headers['x-request-id'] ?? '-';
    try {
      if (req.method === 'POST' && url.pathname === '/v1/authorize') {
        const { keyId, scope } = await body(req);
        const answer = await worker.handle({ requestId, kind: 'request', keyId, scope });
        return reply(answer.status, answer);
      }
      const match = /^\/admin\/keys\/([A-Za-z0-9_]+)$/.exec(url.pathname);
      if (match && req.method === 'DELETE') {
        const answer = await worker.handle({ requestId, kind: 'revoke', keyId: match[1] });
        return reply(answer.status, answer);
      }
      if (match && req.method === 'PATCH') {
        const { scopes } = await body(req);
        const answer = await worker.handle({ requestId, kind: 'set-scopes', keyId: match[1], scopes });
        return reply(answer.status, answer);
      }
      return reply(404, { error: 'not found' });
    } catch (error) {
      return reply(400, { error: error.message });
    }
  });
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
}
