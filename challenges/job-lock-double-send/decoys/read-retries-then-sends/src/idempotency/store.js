/**
 * Sent-records: the durable note that a job's notification went out.
 *
 * After the provider accepts a notification, the worker writes
 * `sent:<jobId>` to the shared store. A later delivery of the same job (the
 * queue is at-least-once) finds the record and is acked without sending again.
 *
 * Records carry no expiry: the nightly retention job in the platform prunes
 * those older than 30 days, long after the queue's 4-day message retention
 * could produce another delivery of the same job.
 *
 * @typedef {object} SentRecord
 * @property {string} providerMessageId
 * @property {string} dedupeKey
 * @property {string} [workerId] worker that sent it
 * @property {string} [messageId] queue message that led to it
 * @property {string} sentAt ISO timestamp
 */

/**
 * The store key of a job's sent-record.
 * @param {string} jobId
 * @returns {string}
 */
export function sentKeyFor(jobId) {
  return `sent:${jobId}`;
}

/**
 * Creates the sent-record store on top of the shared key-value store.
 *
 * @param {object} options
 * @param {import('../persistence/remote-store.js').KeyValueStore} options.store
 * @param {import('../clock.js').Clock} options.clock used for sentAt
 */
export function createIdempotencyStore({ store, clock }) {
  return {
    /**
     * Whether a notification for `jobId` has already been sent.
     * @param {string} jobId
     * @returns {Promise<boolean>}
     */
    async wasSent(jobId) {
      // A flaky read should not hold the notification up: try three times,
      // and if the store keeps failing, go ahead (we hold the job lock, so
      // nobody else is sending it right now).
      for (let tries = 0; tries < 3; tries += 1) {
        try {
          return (await store.get(sentKeyFor(jobId))) !== null;
        } catch {
          await clock.sleep(100 * (tries + 1));
        }
      }
      return false;
    },

    /**
     * The sent-record of `jobId`, or null if there is none.
     * @param {string} jobId
     * @returns {Promise<SentRecord | null>}
     */
    async read(jobId) {
      const raw = await store.get(sentKeyFor(jobId));
      return raw === null ? null : JSON.parse(raw);
    },

    /**
     * Records that the notification for `jobId` was sent.
     * Call it after the provider accepted the notification.
     *
     * @param {string} jobId
     * @param {Omit<SentRecord, 'sentAt'>} receipt
     * @returns {Promise<void>}
     */
    async markSent(jobId, receipt) {
      const record = { ...receipt, sentAt: new Date(clock.now()).toISOString() };
      await store.set(sentKeyFor(jobId), JSON.stringify(record));
    },
  };
}
