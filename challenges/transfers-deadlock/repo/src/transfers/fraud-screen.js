/**
 * Fraud screening, done by the transfer route before a transfer reaches the
 * ledger. It takes no locks and touches no balance.
 *
 * Since RSK-207 (2026-04-20, screening v3) a screen is two calls to the risk
 * service: a device-risk lookup for the app installation, then the scoring
 * call that gets the device risk as one of its inputs. The whole screen has a
 * budget of config.fraudTimeoutMs (2.5 s); past that the route answers 503 and
 * the app offers to retry.
 *
 * @typedef {'allow' | 'review' | 'deny'} Decision
 * @typedef {object} FraudScreen
 * @property {(transfer: import('./transfer.js').Transfer, context: { deviceId?: string }) => Promise<{ decision: Decision, score: number }>} screen
 */

/** The risk service took longer than the budget. The API answers 503. */
export class FraudScreenTimeoutError extends Error {
  name = 'FraudScreenTimeoutError';
}

/**
 * Client for the risk service.
 * @param {{ url: string, timeoutMs: number, token?: string, fetch?: typeof fetch }} options
 * @returns {FraudScreen}
 */
export function createFraudScreen({ url, timeoutMs, token, fetch = globalThis.fetch }) {
  const call = async (path, body, signal) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
    if (!response.ok) throw new Error(`risk service ${path}: HTTP ${response.status}`);
    return response.json();
  };

  return {
    async screen(transfer, { deviceId } = {}) {
      const signal = AbortSignal.timeout(timeoutMs);
      try {
        const device = await call('/device-risk', { deviceId }, signal);
        const { decision, score } = await call('/score', {
          transferId: transfer.id,
          from: transfer.from,
          to: transfer.to,
          amountCents: transfer.amountCents,
          reason: transfer.reason,
          deviceRisk: device.risk,
        }, signal);
        return { decision, score };
      } catch (error) {
        if (error?.name === 'TimeoutError') throw new FraudScreenTimeoutError(`fraud screen exceeded ${timeoutMs} ms`);
        throw error;
      }
    },
  };
}

/** A screen that allows everything, for `npm start`. @type {FraudScreen} */
export const allowAll = Object.freeze({
  async screen() {
    return { decision: 'allow', score: 0 };
  },
});
