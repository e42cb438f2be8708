/**
 * Sent-state: what the outreach worker remembers about what it has sent.
 *
 * Per candidate: before e-mailing a candidate, a worker reserves
 * `sent:<campaignId>:<candidateId>` with setIfAbsent. Only the worker whose
 * reservation is written sends; any other worker, of this shard or of
 * another shard holding the same candidate (re-cut layouts), skips the
 * candidate. The reservation is written before the send starts, so a
 * second worker can never find the candidate "not yet sent" while the first
 * send is on the wire. It is keyed by candidate, never by shard: shard
 * boundaries move between layouts, candidates do not.
 *
 * Per shard: when a batch completes, `sent:<campaignId>:<shardId>` records
 * it, so the board and later claims can skip the shard without reading every
 * candidate. It is an optimisation; the per-candidate reservation is the guard.
 *
 * Records have no expiry: campaigns are archived, keys and all, by the
 * campaign-close job. A reservation whose send never completed (the worker
 * died in between) is reconciled against the provider's log by the
 * campaign-close job; the candidate is not e-mailed twice.
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
 * The store key of a candidate's sent-state in a campaign.
 * @param {string} campaignId
 * @param {string} candidateId
 * @returns {string}
 */
export function candidateSentKeyFor(campaignId, candidateId) {
  return `sent:${campaignId}:${candidateId}`;
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
     * Reserves the candidate's e-mail in this campaign for this worker, before
     * sending it. Resolves true if this call wrote the reservation (send it),
     * false if the candidate was reserved before (by anyone: skip it).
     *
     * @param {string} campaignId
     * @param {string} candidateId
     * @param {{ workerId: string, shardId: string }} by
     * @returns {Promise<boolean>}
     */
    async reserveCandidate(campaignId, candidateId, { workerId, shardId }) {
      const record = JSON.stringify({ workerId, shardId, reservedAt: new Date(clock.now()).toISOString() });
      return store.setIfAbsent(candidateSentKeyFor(campaignId, candidateId), record);
    },

    /**
     * Whether the shard's batch has been completed by some worker.
     * @param {string} campaignId
     * @param {string} shardId
     * @returns {Promise<boolean>}
     */
    async isShardSent(campaignId, shardId) {
      // When the store cannot say, assume the shard went out: better to skip a
      // batch than to e-mail a whole shard twice.
      try {
        return (await store.get(shardSentKeyFor(campaignId, shardId))) !== null;
      } catch {
        return true;
      }
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
