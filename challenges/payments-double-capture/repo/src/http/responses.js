/**
 * Responses as plain values, so that handlers can be called and checked
 * without a socket: src/main.js writes them to the wire.
 *
 * Errors follow RFC 9457 (application/problem+json) with a stable `code`
 * that callers branch on; `detail` is for humans and may change.
 *
 * @typedef {object} ApiRequest
 * @property {string} method e.g. "POST"
 * @property {string} path e.g. "/v1/payments/pay_5mQ2rT8vXc/capture" (no query string)
 * @property {Record<string, string>} headers lower-case names
 * @property {unknown} body the parsed JSON body, or null
 * @property {string} [rawBody] the body as received (needed to check webhook signatures)
 *
 * @typedef {object} ApiResponse
 * @property {number} status
 * @property {unknown} body serialised as JSON
 * @property {Record<string, string>} headers lower-case names
 */

/**
 * A JSON response.
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 * @returns {ApiResponse}
 */
export function json(status, body, headers = {}) {
  return { status, body, headers: { 'content-type': 'application/json', ...headers } };
}

/**
 * A problem+json error response.
 * @param {number} status
 * @param {string} code stable machine-readable code, e.g. "capture_in_progress"
 * @param {string} detail one sentence for humans
 * @param {Record<string, string>} [headers]
 * @returns {ApiResponse}
 */
export function problem(status, code, detail, headers = {}) {
  return {
    status,
    // `code` first: it is what callers branch on, and what a truncated log line should still show.
    body: { code, type: `https://payments.internal.tessera.example/problems/${code}`, title: TITLES[status] ?? 'Error', status, detail },
    headers: { 'content-type': 'application/problem+json', ...headers },
  };
}

/** A request the caller got wrong; the router turns it into a 400. */
export class BadRequestError extends Error {
  /**
   * @param {string} code e.g. "missing_idempotency_key"
   * @param {string} detail
   */
  constructor(code, detail) {
    super(detail);
    this.name = 'BadRequestError';
    this.code = code;
  }
}

const TITLES = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Content',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
};
