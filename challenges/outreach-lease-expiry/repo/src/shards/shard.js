/**
 * A shard: one slice of a campaign's candidate pool, the unit a worker claims.
 *
 * The dispatcher (another service) cuts each campaign's pool into shards and
 * lists them on the shard board. Since layout v3 (2026-03-24) a shard holds
 * up to 400 candidates; before that, 250. When a pool is rebalanced the
 * dispatcher re-cuts it under a new layout, and shards of the old layout that
 * are still being worked stay on the board until they finish, so the same
 * candidate can sit in two live shards.
 *
 *   {
 *     campaignId: 'be-reengage-q2',
 *     shardId: 'shard-14',
 *     layout: 'v3',
 *     attempt: 2,                 // how many times the board has offered this shard
 *     candidates: [
 *       { candidateId: 'cand_7Qm2Lx', email: 'priya.raman@example.net', firstName: 'Priya' },
 *       …
 *     ],
 *   }
 */

/**
 * Thrown for a shard that can never be worked, however often it is offered.
 * The poller logs it and moves on instead of retrying.
 */
export class InvalidShardError extends Error {
  /** @param {string} reason */
  constructor(reason) {
    super(`invalid shard: ${reason}`);
    this.name = 'InvalidShardError';
  }
}

/**
 * @typedef {object} Candidate
 * @property {string} candidateId stable id across campaigns and layouts, e.g. cand_7Qm2Lx
 * @property {string} email
 * @property {string} firstName
 *
 * @typedef {object} Shard
 * @property {string} campaignId
 * @property {string} shardId
 * @property {string} [layout]
 * @property {number} [attempt]
 * @property {Candidate[]} candidates
 */

/**
 * Checks that `shard` is well formed and returns it.
 * @param {unknown} shard
 * @returns {Shard}
 * @throws {InvalidShardError}
 */
export function validateShard(shard) {
  if (shard === null || typeof shard !== 'object') throw new InvalidShardError('not an object');
  const { campaignId, shardId, attempt, candidates } = /** @type {Record<string, any>} */ (shard);
  if (!text(campaignId)) throw new InvalidShardError('campaignId is missing');
  if (!text(shardId)) throw new InvalidShardError(`shardId is missing (campaign ${campaignId})`);
  if (attempt !== undefined && !(Number.isInteger(attempt) && attempt >= 1)) {
    throw new InvalidShardError(`attempt must be a positive integer (${shardId})`);
  }
  if (!Array.isArray(candidates)) throw new InvalidShardError(`candidates is not a list (${shardId})`);
  candidates.forEach((candidate, i) => {
    for (const field of ['candidateId', 'email', 'firstName']) {
      if (!text(candidate?.[field])) throw new InvalidShardError(`candidates[${i}].${field} is missing (${shardId})`);
    }
  });
  return /** @type {Shard} */ (shard);
}

function text(value) {
  return typeof value === 'string' && value.trim() !== '';
}
