/**
 * The events the returns worker publishes on the `returns` topic.
 *
 * return.approved tells the refunds service to pay the customer back: it pays
 * `amountCents` to the order's payment method, once per event id.
 */

/** The topic every returns event goes to. */
export const RETURNS_TOPIC = 'returns';

/**
 * The return.approved event of an approved return. Its id is the same however
 * often it is built for that return, so a subscriber that gets it twice pays
 * once.
 *
 * @param {{ id: string, orderId: string, amountCents: number }} ret the return as the database has it
 * @param {{ approvedBy: string, approvedAt: string }} approval
 */
export function returnApproved(ret, { approvedBy, approvedAt }) {
  return {
    id: `return-approved:${ret.id}`,
    type: 'return.approved',
    returnId: ret.id,
    orderId: ret.orderId,
    amountCents: ret.amountCents,
    approvedBy,
    approvedAt,
  };
}
