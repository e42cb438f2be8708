/**
 * Client for the Ratewire FX API, the provider of our exchange rates.
 *
 * GET {url}/latest?base=USD&symbols=EUR answers
 *   { "base": "USD", "rates": { "EUR": 0.9231 }, "timestamp": 1796392800 }
 * within 200 to 800 ms. Our plan allows 2 requests a second for our API key,
 * counted across every process that uses it; requests over that are answered
 * 429 Too Many Requests. Ratewire has short outages, answered 503.
 *
 * @typedef {object} Quote
 * @property {string} base always USD
 * @property {string} currency the quoted currency, e.g. EUR
 * @property {number} rate units of `currency` per USD
 * @property {string} asOf when Ratewire fixed the rate (ISO 8601)
 *
 * @typedef {object} RatesProvider
 * @property {(currency: string) => Promise<Quote>} latest the current rate of one currency;
 *   rejects with a RatewireError (429, 503, a time-out) when there is none
 */

import { BASE_CURRENCY } from '../config.js';

/** Ratewire did not give a rate. `status` is the HTTP status, or 0 for a time-out. */
export class RatewireError extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.name = 'RatewireError';
    this.status = status;
  }
}

/**
 * Creates the client.
 * @param {{ url: string, apiKey: string, timeoutMs: number, fetch?: typeof fetch }} options
 * @returns {RatesProvider}
 */
export function createRatewireClient({ url, apiKey, timeoutMs, fetch = globalThis.fetch }) {
  return {
    async latest(currency) {
      const query = new URLSearchParams({ base: BASE_CURRENCY, symbols: currency });
      let response;
      try {
        response = await fetch(`${url}/latest?${query}`, {
          headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new RatewireError(0, `Ratewire did not answer: ${error.message}`);
      }
      if (!response.ok) throw new RatewireError(response.status, `${response.status} ${response.statusText}`.trim());
      const body = await response.json();
      const rate = body?.rates?.[currency];
      if (typeof rate !== 'number') throw new RatewireError(502, `Ratewire sent no rate for ${currency}`);
      return { base: BASE_CURRENCY, currency, rate, asOf: new Date(body.timestamp * 1000).toISOString() };
    },
  };
}
