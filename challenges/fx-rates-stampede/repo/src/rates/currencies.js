/**
 * The currencies checkout shows prices in. A request for any other currency is
 * refused before it reaches the cache or Ratewire.
 */

/** ISO 4217 codes checkout supports, with the decimals their amounts have. */
export const CURRENCIES = Object.freeze({
  EUR: 2, GBP: 2, CHF: 2, SEK: 2, NOK: 2, DKK: 2, PLN: 2, CZK: 2, CAD: 2, AUD: 2, JPY: 0,
});

/**
 * The ISO code of a supported currency, upper-cased.
 * @param {unknown} code what the page asked for, e.g. "eur"
 * @returns {string}
 * @throws {RangeError} for a currency checkout does not support
 */
export function supportedCurrency(code) {
  const iso = typeof code === 'string' ? code.trim().toUpperCase() : '';
  if (!Object.hasOwn(CURRENCIES, iso)) throw new RangeError(`unsupported currency ${JSON.stringify(code)}`);
  return iso;
}
