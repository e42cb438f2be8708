/**
 * Client for Kestrel Pay, our payment service provider (PSP).
 *
 * Checkout authorises the card at Kestrel when the customer pays; this API
 * captures the authorised amount once the order is confirmed. Only capture
 * is used here.
 *
 * What Kestrel guarantees, and what it does not (from their API reference,
 * "Captures", v2):
 *   - POST /payments/{id}/captures creates a capture and answers with it.
 *     Partial captures are allowed, so every successful call creates a new
 *     capture with a new id: Kestrel does not deduplicate captures. The
 *     merchant_reference is echoed in reports only.
 *   - A call that fails (4xx, 5xx, or no answer within our timeout) has not
 *     created a capture: Kestrel rejects before it captures, and answers
 *     within a few seconds, well inside our 10 s timeout.
 *   - Each capture is reported once more, asynchronously, by a
 *     capture.succeeded webhook (src/webhooks/kestrel-webhooks.js).
 *
 * @typedef {object} CaptureRequest
 * @property {string} paymentId Kestrel payment id, e.g. "pay_5mQ2rT8vXc"
 * @property {number} amount minor units (pence)
 * @property {string} currency ISO 4217, e.g. "GBP"
 * @property {string} reference merchant reference shown in Kestrel reports
 *
 * @typedef {object} Capture
 * @property {string} captureId e.g. "cap_8FvA21kq"
 * @property {'succeeded'} status
 * @property {number} amount
 * @property {string} currency
 * @property {string} capturedAt ISO 8601
 *
 * @typedef {object} PaymentProvider
 * @property {(request: CaptureRequest) => Promise<Capture>} capture
 *   Creates one capture. Rejects with a PspError if Kestrel did not capture.
 */

/** Kestrel did not capture: an error answer, or none in time. */
export class PspError extends Error {
  /**
   * @param {string} code Kestrel's error code, or "timeout" / "network"
   * @param {string} message
   * @param {number | null} [httpStatus]
   */
  constructor(code, message, httpStatus = null) {
    super(message);
    this.name = 'PspError';
    this.code = code;
    this.httpStatus = httpStatus;
  }
}

/**
 * @param {object} options
 * @param {string} options.baseUrl e.g. https://api.eu-central-2.kestrelpay.example/v2
 * @param {string} options.apiKey secret key of the merchant account
 * @param {number} options.timeoutMs give up after this long
 * @param {typeof fetch} [options.fetch] injectable for tests
 * @returns {PaymentProvider}
 */
export function createKestrelClient({ baseUrl, apiKey, timeoutMs, fetch = globalThis.fetch }) {
  if (!apiKey) throw new TypeError('createKestrelClient: apiKey is required');

  return {
    async capture({ paymentId, amount, currency, reference }) {
      let response;
      try {
        response = await fetch(`${baseUrl}/payments/${encodeURIComponent(paymentId)}/captures`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ amount, currency, merchant_reference: reference }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        const code = error?.name === 'TimeoutError' ? 'timeout' : 'network';
        throw new PspError(code, `Kestrel capture ${code}: ${error?.message ?? error}`);
      }
      const body = await response.json().catch(() => ({}));
      if (!response.ok) {
        throw new PspError(body?.error?.code ?? 'http_error', body?.error?.message ?? `HTTP ${response.status}`, response.status);
      }
      return {
        captureId: body.id,
        status: body.status,
        amount: body.amount,
        currency: body.currency,
        capturedAt: body.created,
      };
    },
  };
}
