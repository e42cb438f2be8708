/**
 * Exports one batch of records to the partner, one upload a record, under a
 * lease in the shared store so that only one worker exports a batch at a time.
 *
 * Store keys of a batch:
 *   lease:<batchId>     the lease: a token unique to one acquisition, written with a TTL
 *   cursor:<batchId>    how many records of the batch are uploaded
 *   finished:<batchId>  set once the whole batch is uploaded
 */

/** Leases taken in this process; keeps every token unique. */
let acquisitions = 0;

/**
 * Creates the exporter of one worker.
 *
 * @param {object} options
 * @param {string} options.owner this worker's name, e.g. "blue"
 * @param {import('./memory-store.js').KeyValueStore} options.store the shared store
 * @param {{ upload(record: object): Promise<object> }} options.partner the partner's import API
 * @param {{ now(): number, sleep(ms: number): Promise<void> }} options.clock
 * @param {number} options.leaseMs how long a lease lasts unless renewed
 */
export function createExporter({ owner, store, partner, clock, leaseMs }) {
  return {
    /**
     * Uploads the records of a batch that are not uploaded yet.
     * @param {{ batchId: string, records: object[] }} batch
     * @returns {Promise<'exported' | 'done' | 'busy' | 'lost-lease'>}
     */
    async export({ batchId, records }) {
      acquisitions += 1;
      const lease = `lease:${batchId}`;
      const token = `${owner}:${clock.now()}:${acquisitions}`;
      if (!(await store.setIfAbsent(lease, token, { ttlMs: leaseMs }))) return 'busy';
      try {
        if ((await store.get(`finished:${batchId}`)) !== null) return 'done';
        const uploaded = Number((await store.get(`cursor:${batchId}`)) ?? '0');
        for (let next = uploaded; next < records.length; next++) {
          // Keep the lease alive before each upload; stop if it is gone.
          if (!(await store.expire(lease, leaseMs))) return 'lost-lease';
          await partner.upload(records[next]);
          await store.set(`cursor:${batchId}`, String(next + 1));
        }
        await store.set(`finished:${batchId}`, owner);
        return 'exported';
      } finally {
        await store.compareAndDelete(lease, token);
      }
    },
  };
}
