/**
 * Handles one POST /v1/sms, after the edge proxy authenticated the partner:
 *
 *   1. count the request against the partner's quota for the current window
 *      (src/quota/fixed-window.js); over the quota, answer 429;
 *   2. hand the message to Meridian (src/carrier/meridian-client.js);
 *   3. answer 202 with Meridian's message id.
 *
 * `handle(body)` resolves to what the HTTP layer sends back:
 *
 *   { status: 202, requestId, messageId, limit, remaining, resetAt }
 *   { status: 429, requestId, limit, remaining: 0, resetAt }
 *   { status: 400, requestId?, error }
 *
 * It throws when Meridian could not be reached (the HTTP layer answers 502;
 * the partner retries with a new request).
 *
 * Each gateway pod builds one gateway at start-up and handles many requests at
 * once. Pods share nothing but the quota store and Meridian.
 */

import { defaultConfig } from './config.js';
import { createMeridianClient } from './carrier/meridian-client.js';
import { silentLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { productionPlans, quotaOf } from './plans.js';
import { createQuota } from './quota/fixed-window.js';
import { validateSmsRequest } from './request.js';

/**
 * @param {object} deps
 * @param {string} deps.instanceId this pod's name, e.g. sms-gateway-5d8f7-kq2xw
 * @param {import('./persistence/remote-store.js').KeyValueStore} deps.store the quota store
 * @param {import('./carrier/meridian-client.js').Carrier} deps.carrier Meridian's submit API
 * @param {import('./clock.js').Clock} deps.clock
 * @param {Readonly<Record<string, number>>} [deps.plans] requests per window, by partner
 * @param {import('./logger.js').Logger} [deps.logger]
 * @param {import('./metrics.js').Metrics} [deps.metrics]
 * @param {Partial<import('./config.js').GatewayConfig>} [deps.config]
 */
export function createGateway({
  instanceId, store, carrier, clock, plans = productionPlans, logger = silentLogger, metrics = createMetrics(), config = {},
}) {
  if (!instanceId) throw new TypeError('createGateway: instanceId is required');
  if (!store) throw new TypeError('createGateway: store is required');
  if (!carrier) throw new TypeError('createGateway: carrier is required');
  if (!clock) throw new TypeError('createGateway: clock is required');

  const settings = { ...defaultConfig, ...config };
  const log = logger.with({ pod: instanceId });
  const quota = createQuota({ store, clock, windowMs: settings.windowMs, counterTtlMs: settings.counterTtlMs, logger: log, metrics });
  const meridian = createMeridianClient({
    carrier, clock, attempts: settings.carrierAttempts, retryDelayMs: settings.carrierRetryDelayMs, logger: log, metrics,
  });

  async function handle(body) {
    let request;
    try {
      request = validateSmsRequest(body);
    } catch (error) {
      return { status: 400, requestId: body?.requestId, error: error.message };
    }
    const { requestId, partnerId } = request;
    metrics.increment('sms requests');

    const decision = await quota.take(partnerId, quotaOf(plans, partnerId), { req: requestId });
    const limits = { limit: decision.limit, remaining: Math.max(0, decision.limit - decision.used), resetAt: decision.resetAt };
    if (!decision.allowed) {
      log.info({ req: requestId, partner: partnerId, status: 429, used: decision.used, limit: decision.limit });
      return { status: 429, requestId, ...limits };
    }

    const messageId = await meridian.submit(request);
    metrics.increment('sms accepted');
    log.info({ req: requestId, partner: partnerId, status: 202, used: decision.used, limit: decision.limit, meridian: messageId });
    return { status: 202, requestId, messageId, ...limits };
  }

  return { instanceId, handle };
}
