/**
 * The pod's HTTP routes. Every route is listed here:
 *
 *   POST /checkouts           place an order      200 confirmed | 409 sold-out | 402 declined
 *   GET  /stock/{sku}/badge   the stock badge      200 (cached by the CDN)
 *   GET  /healthz             liveness             200
 */

import http from 'node:http';
import { InvalidCheckoutError } from '../checkout/request.js';
import { silentLogger } from '../logger.js';

const STATUS = { confirmed: 200, 'sold-out': 409, declined: 402 };
const MAX_BODY_BYTES = 16 * 1024;

/**
 * @param {object} deps
 * @param {{ handle: (request: unknown) => Promise<string> }} deps.checkout
 * @param {(sku: string) => Promise<{ status: number, headers: Record<string, string>, body: string }>} deps.badge
 * @param {import('../logger.js').Logger} [deps.logger]
 * @returns {http.Server}
 */
export function createServer({ checkout, badge, logger = silentLogger }) {
  return http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://checkout');
    try {
      if (req.method === 'POST' && url.pathname === '/checkouts') {
        const outcome = await checkout.handle(await readJson(req));
        return send(res, STATUS[outcome] ?? 500, { outcome });
      }
      const badgeRoute = url.pathname.match(/^\/stock\/([A-Za-z0-9-]+)\/badge$/);
      if (req.method === 'GET' && badgeRoute) {
        const answer = await badge(badgeRoute[1]);
        res.writeHead(answer.status, answer.headers);
        return res.end(answer.body);
      }
      if (req.method === 'GET' && url.pathname === '/healthz') return send(res, 200, { ok: true });
      return send(res, 404, { error: 'not found' });
    } catch (error) {
      if (error instanceof InvalidCheckoutError || error instanceof SyntaxError) {
        return send(res, 400, { error: error.message });
      }
      logger.error({ msg: 'request failed', path: url.pathname, error: error?.message });
      return send(res, 503, { error: 'try again; you were not charged' });
    }
  });
}

async function readJson(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new InvalidCheckoutError('body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
