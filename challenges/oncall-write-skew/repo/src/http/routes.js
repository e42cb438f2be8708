/**
 * The HTTP routes of a rota pod (node:http, no framework):
 *
 *   POST /teams/:team/off-call   { user }          → the handler's outcome
 *   GET  /teams/:team/on-call                      → { team, onCall: [users] }
 *   POST /slack/interactions     a button click    → { text } for Slack
 *   GET  /metrics                                  → Prometheus text
 */

import { offCallRequestFrom, replyText } from '../slack/interactions.js';
import { whoIsOnCall } from '../rota/who-is-on-call.js';

const STATUS = { 'off-call': 200, 'last-on-call': 409, 'not-on-call': 409 };

/**
 * @param {object} deps
 * @param {ReturnType<typeof import('../rota/handler.js').createRotaHandler>} deps.handler
 * @param {import('../db/sql-gateway.js').Database} deps.db
 * @param {import('../metrics.js').Metrics} deps.metrics
 * @param {() => string} deps.newRequestId
 * @returns {(req: import('node:http').IncomingMessage, body: any) => Promise<{ status: number, body: unknown }>}
 */
export function createRoutes({ handler, db, metrics, newRequestId }) {
  const answer = async (request) => {
    try {
      const outcome = await handler.handle(request);
      return { status: STATUS[outcome] ?? 500, outcome };
    } catch {
      return { status: 503, outcome: 'error' };
    }
  };

  return async (req, body) => {
    const url = new URL(req.url, 'http://rota');
    const [, first, team, last] = url.pathname.split('/');
    if (req.method === 'POST' && first === 'teams' && last === 'off-call') {
      const { status, outcome } = await answer({ requestId: newRequestId(), team, user: body?.user, via: 'api' });
      return { status, body: { team, user: body?.user, outcome } };
    }
    if (req.method === 'GET' && first === 'teams' && last === 'on-call') {
      return { status: 200, body: { team, onCall: await whoIsOnCall(db, team) } };
    }
    if (req.method === 'POST' && url.pathname === '/slack/interactions') {
      const request = offCallRequestFrom(body);
      if (!request) return { status: 200, body: { text: 'Nothing to do.' } };
      const { outcome } = await answer(request);
      return { status: 200, body: { text: replyText(outcome, request.team) } };
    }
    if (req.method === 'GET' && url.pathname === '/metrics') return { status: 200, body: metrics.text() };
    return { status: 404, body: { error: 'not found' } };
  };
}
