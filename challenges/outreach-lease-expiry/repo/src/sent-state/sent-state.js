/**
 * Sent-state: what the outreach worker remembers about what it has sent.
 *
 * Sent-state is kept per shard. When a worker finishes a shard's batch it
 * writes `sent:<campaignId>:<shardId>`; a worker that claims a shard first
 * reads that key and, if it is there, leaves the shard alone (the poller also
 * skips shards whose key exists). Records have no expiry: campaigns are
 * archived, keys and all, by the campaign-close job.
 *
 * Individual e-mails are not recorded here. Each send is logged as an
 * `outreach sent` line, which the warehouse loads into outreach_sent_log for
 * reporting (it is hours behind and never consulted before a send).
 *
 * @typedef {object} ShardSentRecord
 * @property {string} workerId worker that completed the batch
 * @property {number} sent e-mails sent in the batch
 * @property {string} startedAt ISO time the batch started
 * @property {string} finishedAt ISO time it finished
 */

/**
 * The store key of a shard's sent-state.
 * @param {string} campaignId
 * @param {string} shardId
 * @returns {string}
 */
export function shardSentKeyFor(campaignId, shardId) {
  return `sent:${campaignId}:${shardId}`;
}

/**
 * Creates the sent-state helper on top of the shared store.
 *
 * @param {object} options
 * @param {import('../store/remote-store.js').KeyValueStore} options.store
 * @param {import('../clock.js').Clock} options.clock
 */
export function createSentState({ store, clock }) {
  return {
    /**
     * Whether the shard's batch has been completed by some worker.
     * @param {string} campaignId
     * @param {string} shardId
     * @returns {Promise<boolean>}
     */
    async isShardSent(campaignId, shardId) {
      return (await store.get(shardSentKeyFor(campaignId, shardId))) !== null;
    },

    /**
     * The shard's record, or null.
     * @param {string} campaignId
     * @param {string} shardId
     * @returns {Promise<ShardSentRecord | null>}
     */
    async readShard(campaignId, shardId) {
      const raw = await store.get(shardSentKeyFor(campaignId, shardId));
      return raw === null ? null : JSON.parse(raw);
    },

    /**
     * Records that the shard's batch is complete. Call it after the last send.
     * @param {string} campaignId
     * @param {string} shardId
     * @param {{ workerId: string, sent: number, startedAt: number }} batch
     * @returns {Promise<void>}
     */
    async markShardSent(campaignId, shardId, { workerId, sent, startedAt }) {
      /** @type {ShardSentRecord} */
      const record = {
        workerId,
        sent,
        startedAt: new Date(startedAt).toISOString(),
        finishedAt: new Date(clock.now()).toISOString(),
      };
      await store.set(shardSentKeyFor(campaignId, shardId), JSON.stringify(record));
    },
  };
}
