/**
 * Builds one daily report and writes it to the report storage, under a lease
 * from the lease service so that only one worker builds a report at a time.
 *
 * The lease service grants a lease on `report:<day>` for LEASE_MS and answers
 * with a fencing token: a number higher than every token it granted before.
 * The storage keeps, per key, the highest fence it accepted, and refuses a
 * write whose fence is lower (see src/memory-storage.js).
 */

/** How long a report's lease lasts, in ms. */
export const LEASE_MS = 2_000;

/**
 * Creates the report job of one worker.
 *
 * @param {object} options
 * @param {string} options.owner this worker's name, e.g. "blue"
 * @param {import('./memory-leases.js').LeaseService} options.leases
 * @param {import('./memory-storage.js').ReportStorage} options.storage
 */
export function createReportJob({ owner, leases, storage }) {
  return {
    /**
     * Builds the report of `day` from its ledger and writes it.
     * @param {string} day e.g. "2026-05-01"
     * @returns {Promise<'written' | 'busy' | 'superseded'>}
     */
    async run(day) {
      const lease = `report:${day}`;
      const token = await leases.acquire(lease, owner, LEASE_MS);
      if (token === null) return 'busy';
      try {
        const ledger = await storage.read(`ledgers/${day}`);
        const report = JSON.stringify({ day, entries: ledger?.length ?? 0, builtBy: owner });
        // The write's fence is the lease's token: if this worker froze and its
        // lease passed to another worker, that worker's higher token wrote
        // first, and the storage refuses this write as stale.
        await storage.write(`reports/${day}`, report, token);
        return 'written';
      } catch (error) {
        if (/stale/.test(error.message)) return 'superseded';
        throw error;
      } finally {
        await leases.release(lease, owner);
      }
    },
  };
}
