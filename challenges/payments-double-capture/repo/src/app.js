/**
 * The payments API as one function from request to response.
 *
 * createApp() wires the routes to their dependencies; handle() routes one
 * request, turns thrown errors into problem responses and writes the access
 * line. src/main.js puts it behind node:http; tests call handle() directly.
 *
 * Routes:
 *   GET  /healthz
 *   POST /v1/payments/{paymentId}/capture   src/captures/capture-route.js
 *   POST /v1/webhooks/kestrel               src/webhooks/kestrel-webhooks.js
 */

import { createCaptureRoute } from './captures/capture-route.js';
import { createCaptureService } from './captures/capture-service.js';
import { defaultConfig } from './config.js';
import { BadRequestError, json, problem } from './http/responses.js';
import { silentLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createWebhookRoute } from './webhooks/kestrel-webhooks.js';

const PAYMENT_ID = '(pay_[A-Za-z0-9]{4,32})';

/**
 * @param {object} deps
 * @param {string} deps.instanceId e.g. "api-0"
 * @param {import('./persistence/remote-store.js').KeyValueStore} deps.store shared by every instance
 * @param {import('./psp/kestrel-client.js').PaymentProvider} deps.psp Kestrel Pay
 * @param {import('./clock.js').Clock} deps.clock
 * @param {Partial<import('./config.js').ApiConfig>} [deps.config]
 * @param {string} [deps.webhookSecret]
 * @param {import('./logger.js').Logger} [deps.logger]
 * @param {import('./metrics.js').Metrics} [deps.metrics]
 * @returns {{ instanceId: string, handle: (request: import('./http/responses.js').ApiRequest) => Promise<import('./http/responses.js').ApiResponse> }}
 */
export function createApp({ instanceId, store, psp, clock, config = {}, webhookSecret, logger = silentLogger, metrics = createMetrics() }) {
  if (!instanceId) throw new TypeError('createApp: instanceId is required');
  if (!store || !psp || !clock) throw new TypeError('createApp: store, psp and clock are required');

  const settings = { ...defaultConfig, ...config, instanceId };
  const log = logger.child({ instance: instanceId });
  const service = createCaptureService({ instanceId, store, psp, clock, config: settings, logger: log, metrics });

  const routes = [
    { method: 'GET', pattern: /^\/healthz$/, handler: async () => json(200, { ok: true, instance: instanceId }) },
    {
      method: 'POST',
      pattern: new RegExp(`^/v1/payments/${PAYMENT_ID}/capture$`),
      handler: createCaptureRoute({ service, config: settings }),
      params: (match) => ({ paymentId: match[1] }),
      counter: 'capture requests',
    },
    {
      method: 'POST',
      pattern: /^\/v1\/webhooks\/kestrel$/,
      handler: createWebhookRoute({ instanceId, store, clock, config: settings, secret: webhookSecret, logger: log, metrics }),
    },
  ];

  async function route(request) {
    const path = request.path ?? '';
    const candidates = routes.filter((r) => r.pattern.test(path));
    if (candidates.length === 0) return problem(404, 'not_found', `No route for ${path}.`);
    const found = candidates.find((r) => r.method === request.method);
    if (!found) return problem(404, 'not_found', `No ${request.method} route for ${path}.`);
    if (found.counter) metrics.increment(found.counter);
    return found.handler(request, found.params ? found.params(path.match(found.pattern)) : {});
  }

  async function handle(request) {
    const started = clock.now();
    const headers = request.headers ?? {};
    let response;
    try {
      response = await route({ ...request, headers });
    } catch (error) {
      if (error instanceof BadRequestError) {
        response = problem(400, error.code, error.message);
      } else {
        log.error('request.failed', { path: request.path, error: error?.message ?? String(error) });
        response = problem(500, 'internal_error', 'The request failed; it is safe to retry with the same Idempotency-Key.');
      }
    }
    log.info('request', {
      method: request.method,
      path: request.path,
      status: response.status,
      ms: clock.now() - started,
      idem_key: headers['idempotency-key'],
      request_id: headers['x-request-id'],
    });
    return response;
  }

  return { instanceId, handle };
}
