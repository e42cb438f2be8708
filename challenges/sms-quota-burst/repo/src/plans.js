/**
 * Partner plans: how many POST /v1/sms requests a partner may make in one
 * quota window (see windowMs in src/config.js). The numbers are the committed
 * rate of the partner's sub-account at Meridian: anything Kitewire sends above
 * it in a second is billed as overage, at three times the price.
 *
 * Billing owns this table; it is generated from the contracts database on
 * every deploy. Partners not listed here get the trial plan.
 */

/** @type {Readonly<Record<string, number>>} */
export const productionPlans = Object.freeze({
  'lindqvist-dental': 5,
  'harbourline-ferries': 20,
  'okafor-pharmacy': 10,
  'veloparc-bikes': 5,
  'brightmoor-vets': 1,
  'pennant-physio': 2,
});

/** Requests per window for partners without a contract. */
export const TRIAL_QUOTA = 1;

/**
 * The quota of `partnerId` under `plans`.
 * @param {Readonly<Record<string, number>>} plans
 * @param {string} partnerId
 * @returns {number}
 */
export function quotaOf(plans, partnerId) {
  const quota = Object.hasOwn(plans, partnerId) ? plans[partnerId] : TRIAL_QUOTA;
  if (!Number.isInteger(quota) || quota < 0) throw new RangeError(`plan of ${partnerId} is ${quota}, not a whole number of requests`);
  return quota;
}
