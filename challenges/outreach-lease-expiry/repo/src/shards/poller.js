/**
 * The polling slots of one worker process.
 *
 * Each slot asks the shard board for the campaign's open shards (those not
 * recorded as sent), tries them in order, and works the first one it can
 * claim. A slot that finds nothing to claim sleeps for pollIntervalMs and
 * asks again. This is how a shard gets to a second worker: any slot of any
 * worker that polls while the shard is open and unclaimed will take it.
 *
 * In production the board is the dispatcher's shard table; for local runs
 * createLocalBoard() keeps the shards in memory.
 */

import { nullLogger } from '../logger.js';
import { InvalidShardError } from './shard.js';

/**
 * @typedef {object} ShardBoard
 * @property {(campaignId: string) => Promise<import('./shard.js').Shard[]>} openShards
 *   the campaign's shards not recorded as sent, each with its offer count as `attempt`
 */

/**
 * Creates the polling slots of one worker.
 *
 * @param {object} options
 * @param {string} options.campaignId
 * @param {ShardBoard} options.board
 * @param {{ runShard: (shard: object) => Promise<string> }} options.runner this worker's shard runner
 * @param {number} options.slots how many shards this worker works at once
 * @param {import('../clock.js').Clock} options.clock
 * @param {number} options.pollIntervalMs
 * @param {import('../logger.js').Logger} [options.logger]
 */
export function createPoller({ campaignId, board, runner, slots, clock, pollIntervalMs, logger = nullLogger }) {
  let running = false;
  /** @type {Promise<void>[]} */
  let loops = [];

  async function pollOnce(slot) {
    for (const shard of await board.openShards(campaignId)) {
      if (!running) return false;
      try {
        const outcome = await runner.runShard(shard);
        if (outcome !== 'busy') return true;
      } catch (error) {
        const what = error instanceof InvalidShardError ? 'skipped invalid shard' : 'shard failed; left for a later poll';
        logger.error({ slot, shard: shard.shardId, msg: what, error: error.message });
      }
    }
    return false;
  }

  async function runSlot(slot) {
    while (running) {
      const worked = await pollOnce(slot);
      if (!worked && running) await clock.sleep(pollIntervalMs);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loops = Array.from({ length: slots }, (_, i) => runSlot(i + 1));
    },
    async stop() {
      running = false;
      await Promise.all(loops);
      loops = [];
    },
  };
}

/**
 * An in-memory shard board for local runs.
 *
 * @param {object} options
 * @param {{ isShardSent: (campaignId: string, shardId: string) => Promise<boolean> }} options.sentState
 * @returns {ShardBoard & { publish: (shard: import('./shard.js').Shard) => void }}
 */
export function createLocalBoard({ sentState }) {
  const shards = [];
  const offers = new Map();
  return {
    publish(shard) {
      shards.push(shard);
    },
    async openShards(campaignId) {
      const open = [];
      for (const shard of shards.filter((s) => s.campaignId === campaignId)) {
        if (await sentState.isShardSent(campaignId, shard.shardId)) continue;
        const attempt = (offers.get(shard.shardId) ?? 0) + 1;
        offers.set(shard.shardId, attempt);
        open.push({ ...shard, attempt });
      }
      return open;
    },
  };
}
