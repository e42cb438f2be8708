/**
 * The transfer API, as the app and the API gateway see it.
 *
 *   POST /v1/transfers                 body: { id, from, to, amountCents, reason? }
 *   POST /v1/transfers/{id}/send-back  body: { id }  ("Send it back", LED-431)
 *
 * Both screen the transfer for fraud first (src/transfers/fraud-screen.js) and
 * then hand it to the transfer service. "Send it back" looks up the posted
 * payment and creates the reverse transfer of the same amount, from the
 * person who received it to the person who sent it.
 *
 * Each request gets its own transfer service, and with it its own
 * ledger-locks session (see serviceFor in src/main.js). The gateway's request
 * id (x-request-id) names the session.
 *
 * The gateway gives up after 30 s and answers 504 to the app; the handler is
 * not told and carries on. The app then retries with the same transfer id.
 */

import { quietLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { InvalidTransferError, sendBackOf, validateTransfer } from '../transfers/transfer.js';
import { FraudScreenTimeoutError } from '../transfers/fraud-screen.js';
import { UnknownAccountError } from '../ledger/ledger-store.js';

const STATUS = Object.freeze({ posted: 201, duplicate: 200, declined: 422 });
const SEND_BACK = /^\/v1\/transfers\/(trf_[0-9A-Za-z]{3,26})\/send-back$/;

/**
 * @typedef {object} ApiRequest
 * @property {string} method
 * @property {string} path
 * @property {Record<string, string | undefined>} headers
 * @property {unknown} body parsed JSON body
 *
 * @typedef {object} ApiResponse
 * @property {number} status
 * @property {object} body
 */

/**
 * @typedef {ReturnType<typeof import('../transfers/service.js').createTransferService>} TransferService
 */

/**
 * @param {object} options
 * @param {(requestId: string) => TransferService} options.serviceFor the transfer service of one request
 * @param {import('../transfers/fraud-screen.js').FraudScreen} options.fraud
 * @param {import('../clock.js').Clock} options.clock
 * @param {import('../logger.js').Logger} [options.logger]
 * @param {import('../metrics.js').Metrics} [options.metrics]
 * @returns {(request: ApiRequest) => Promise<ApiResponse>}
 */
export function createTransferRoutes({ serviceFor, fraud, clock, logger = quietLogger, metrics = createMetrics() }) {
  let requests = 0;

  async function screenAndTransfer(service, transfer, request) {
    const screenedAt = clock.now();
    const { decision, score } = await fraud.screen(transfer, { deviceId: request.headers['x-device-id'] });
    const ms = clock.now() - screenedAt;
    metrics.observe('fraud screen', ms);
    logger.info({ transfer: transfer.id, msg: 'fraud screen', decision, score, ms });
    if (decision !== 'allow') {
      logger.warn({ transfer: transfer.id, msg: 'fraud screen refused transfer', decision, score });
      return { status: 403, body: { error: 'refused', decision } };
    }
    const outcome = await service.transfer(transfer);
    return { status: STATUS[outcome] ?? 500, body: { id: transfer.id, outcome } };
  }

  async function createTransfer(service, request) {
    return screenAndTransfer(service, validateTransfer(request.body), request);
  }

  async function sendBack(service, request, originalId) {
    const original = await service.find(originalId);
    if (!original) return { status: 404, body: { error: 'no posted transfer with that id' } };
    const id = /** @type {any} */ (request.body)?.id;
    return screenAndTransfer(service, sendBackOf(original, id), request);
  }

  return async function handle(request) {
    try {
      if (request.method !== 'POST') return { status: 405, body: { error: 'method not allowed' } };
      requests += 1;
      const service = serviceFor(request.headers['x-request-id'] || `local-${requests}`);
      if (request.path === '/v1/transfers') return await createTransfer(service, request);
      const match = SEND_BACK.exec(request.path);
      if (match) return await sendBack(service, request, match[1]);
      return { status: 404, body: { error: 'not found' } };
    } catch (error) {
      if (error instanceof InvalidTransferError) return { status: 400, body: { error: error.message } };
      if (error instanceof UnknownAccountError) return { status: 404, body: { error: error.message } };
      if (error instanceof FraudScreenTimeoutError) return { status: 503, body: { error: 'fraud screening unavailable, retry' } };
      logger.error({ msg: 'transfer failed', path: request.path, error: error.message });
      return { status: 500, body: { error: 'internal error' } };
    }
  };
}
