/**
 * Converts a USD price into the shopper's currency with a rate, the way the
 * finance team signed off: half-up to the currency's smallest unit.
 */

import { CURRENCIES } from './currencies.js';

/**
 * Converts an amount in US cents.
 * @param {number} usdCents the price in USD cents
 * @param {{ currency: string, rate: number }} quote units of `currency` per USD
 * @returns {{ currency: string, minor: number }} the amount in the currency's smallest unit
 */
export function convert(usdCents, quote) {
  if (!Number.isInteger(usdCents) || usdCents < 0) throw new RangeError(`usdCents must be a non-negative integer, got ${usdCents}`);
  if (!(quote.rate > 0)) throw new RangeError(`no usable rate for ${quote.currency}`);
  const decimals = CURRENCIES[quote.currency] ?? 2;
  const minor = (usdCents / 100) * quote.rate * 10 ** decimals;
  return { currency: quote.currency, minor: Math.floor(minor + 0.5) };
}
