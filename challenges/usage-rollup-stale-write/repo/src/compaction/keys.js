/**
 * Where a tenant's usage lives, per billing period (a calendar month,
 * "2026-10"). Invoicing reads the rollup key; the lease key is the one the
 * compactors take before they compact.
 */

/** The object invoicing reads: the tenant's usage for the whole period. */
export const rollupKey = (tenant, period) => `rollups/${period}/${tenant}.json`;

/** The lease a compactor holds while it compacts the tenant's period. */
export const leaseKey = (tenant, period) => `rollup:${period}:${tenant}`;
