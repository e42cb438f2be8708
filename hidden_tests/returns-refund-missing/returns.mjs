// The returns the scenarios put in the returns database.

/** The returns the scenarios use, by name. */
export const RETURNS = {
  // The incident's return: inspected and approved by the agent.
  parka: { id: 'RMA-20417', orderId: 'FO-88213', customer: 'c-5521', amountCents: 12_900, status: 'requested' },
  // A second return waiting for approval.
  boots: { id: 'RMA-20431', orderId: 'FO-88307', customer: 'c-0093', amountCents: 3_450, status: 'requested' },
  // Approved and refunded last October, months before the workers' clock
  // starts (14 March 2026): its event went out then.
  tent: { id: 'RMA-19876', orderId: 'FO-86110', customer: 'c-2274', amountCents: 7_800, status: 'approved', approvedBy: 'wh-tom', approvedAt: '2025-10-02T09:14:00.000Z' },
  // Cancelled by the customer last week.
  gloves: { id: 'RMA-20388', orderId: 'FO-88002', customer: 'c-6120', amountCents: 2_900, status: 'cancelled' },
};

/** The same returns, by id. */
export const byId = Object.fromEntries(Object.values(RETURNS).map((r) => [r.id, r]));
