/**
 * What a transfer is, and how a request for one is checked.
 *
 * Account ids name a product and a customer number: `wal-104217` is customer
 * 104217's wallet, `sav-104217` the same customer's savings pot. Amounts are
 * whole euro cents. Transfer ids come from the app (`trf_` + a ULID) and double
 * as the idempotency key: the app retries a transfer with the same id.
 */

/** Products an account id can name. */
export const PRODUCTS = Object.freeze({ wal: 'wallet', sav: 'savings' });

const ACCOUNT_ID = /^(wal|sav)-(\d{6})$/;
const TRANSFER_ID = /^trf_[0-9A-Za-z]{3,26}$/;

/** Largest single transfer the ledger accepts: 10 000.00 EUR. */
export const MAX_AMOUNT_CENTS = 1_000_000;

/** A request the API answers with 400: the app sent something malformed. */
export class InvalidTransferError extends Error {
  name = 'InvalidTransferError';
}

/**
 * Splits an account id into its parts.
 * @param {string} accountId e.g. "sav-104217"
 * @returns {{ product: 'wallet' | 'savings', customer: number }}
 * @throws {InvalidTransferError} when the id is not an account id
 */
export function parseAccountId(accountId) {
  const match = ACCOUNT_ID.exec(String(accountId));
  if (!match) throw new InvalidTransferError(`not an account id: ${JSON.stringify(accountId)}`);
  return { product: PRODUCTS[match[1]], customer: Number(match[2]) };
}

/**
 * @typedef {object} Transfer
 * @property {string} id transfer id, also the idempotency key
 * @property {string} from account debited
 * @property {string} to account credited
 * @property {number} amountCents
 * @property {'payment' | 'send_back' | 'pot_move'} reason why the app asked for it
 * @property {string} [sendsBack] for reason send_back: the transfer being returned
 */

/**
 * Checks a transfer request and returns it in canonical form.
 * @param {unknown} request the parsed request body
 * @returns {Transfer}
 * @throws {InvalidTransferError}
 */
export function validateTransfer(request) {
  if (request === null || typeof request !== 'object') throw new InvalidTransferError('the request body must be an object');
  const { id, from, to, amountCents, reason = 'payment', sendsBack } = /** @type {Record<string, any>} */ (request);
  if (!TRANSFER_ID.test(String(id))) throw new InvalidTransferError(`not a transfer id: ${JSON.stringify(id)}`);
  parseAccountId(from);
  parseAccountId(to);
  if (from === to) throw new InvalidTransferError('from and to are the same account');
  if (!Number.isInteger(amountCents) || amountCents <= 0 || amountCents > MAX_AMOUNT_CENTS) {
    throw new InvalidTransferError(`amountCents must be a whole number from 1 to ${MAX_AMOUNT_CENTS}, got ${JSON.stringify(amountCents)}`);
  }
  if (!['payment', 'send_back', 'pot_move'].includes(reason)) throw new InvalidTransferError(`unknown reason ${JSON.stringify(reason)}`);
  if (reason === 'send_back' && !TRANSFER_ID.test(String(sendsBack))) {
    throw new InvalidTransferError('a send_back names the transfer it returns in sendsBack');
  }
  return Object.freeze({ id, from, to, amountCents, reason, ...(reason === 'send_back' ? { sendsBack } : {}) });
}

/**
 * The transfer that returns `original` to its sender ("Send it back").
 * @param {Transfer} original a posted transfer
 * @param {string} id the new transfer's id
 * @returns {Transfer}
 */
export function sendBackOf(original, id) {
  return validateTransfer({ id, from: original.to, to: original.from, amountCents: original.amountCents, reason: 'send_back', sendsBack: original.id });
}

/** Formats cents as "25.00 EUR" for logs. */
export function formatAmount(cents) {
  return `${(cents / 100).toFixed(2)} EUR`;
}
