/**
 * Works one shard of an outreach campaign: claims it, e-mails every candidate
 * in it, records the shard as sent and gives the claim back.
 *
 * For each shard the board offers:
 *   1. claim the shard (src/shards/claim-lock.js); if another worker holds
 *      it, leave it for now;
 *   2. keep the claim alive while the batch runs (src/shards/lease-keeper.js);
 *   3. read the shard's sent-state (src/sent-state/sent-state.js); if the
 *      shard was completed before, there is nothing to do;
 *   4. for each candidate, in order:
 *        a. make sure this worker still holds the claim, in the store; if
 *           not, stop: the shard belongs to someone else now;
 *        b. reserve the candidate's sent-state (per candidate, before the
 *           send); if it was reserved before, skip the candidate;
 *        c. look up the profile (enrichment), then render and send the e-mail;
 *   5. record the shard as sent;
 *   6. stop the heartbeat and release the claim.
 *
 * The outcome tells the poller what happened:
 *   'sent'          this worker worked the shard to the end
 *   'already-sent'  the shard had been completed before; nothing was sent
 *   'busy'          another worker holds the shard; the poller moves on and
 *                   the board offers the shard again on a later poll
 *   'lost'          the claim lapsed or was taken over mid-batch (this worker
 *                   was frozen past its lease); it stopped, and the worker
 *                   holding the claim now finishes the shard
 * Anything thrown leaves the shard unsent, to be offered again; candidates
 * already reserved are not e-mailed again.
 */

import { formatDuration } from '../clock.js';
import { defaultConfig } from '../config.js';
import { nullLogger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { createMailer } from '../outreach/mailer.js';
import { createSentState } from '../sent-state/sent-state.js';
import { createClaimLock } from './claim-lock.js';
import { keepLease } from './lease-keeper.js';
import { validateShard } from './shard.js';

/** A progress line every this many e-mails. */
const PROGRESS_EVERY = 100;

/** @typedef {'sent' | 'already-sent' | 'busy' | 'lost'} Outcome */

/**
 * Creates the shard runner of one worker.
 *
 * @param {object} deps
 * @param {string} deps.workerId this worker's name, unique among running workers
 * @param {import('../store/remote-store.js').KeyValueStore} deps.store the shared store
 * @param {import('../outreach/mailer.js').EmailProvider} deps.provider the e-mail provider
 * @param {import('../enrichment/client.js').EnrichmentClient} deps.enrichment the enrichment API
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @param {Partial<import('../config.js').WorkerConfig>} [deps.config] only claimLeaseMs is used here
 * @returns {{ workerId: string, runShard: (shard: import('./shard.js').Shard) => Promise<Outcome> }}
 */
export function createShardRunner({
  workerId,
  store,
  provider,
  enrichment,
  clock,
  logger = nullLogger,
  metrics = createMetrics(),
  config = defaultConfig,
}) {
  if (!workerId) throw new TypeError('createShardRunner: workerId is required');
  if (!store) throw new TypeError('createShardRunner: store is required');
  if (!clock) throw new TypeError('createShardRunner: clock is required');
  if (typeof enrichment?.lookup !== 'function') throw new TypeError('createShardRunner: enrichment.lookup is required');

  const settings = { ...defaultConfig, ...config };
  const log = logger.with({ worker: workerId });
  const claims = createClaimLock({ store, owner: workerId, leaseMs: settings.claimLeaseMs, clock, logger: log });
  const sentState = createSentState({ store, clock });
  const mailer = createMailer({ provider, logger: log });

  /**
   * Works one shard. See the top of this file for the steps and outcomes.
   * @param {import('./shard.js').Shard} shard
   * @returns {Promise<Outcome>}
   */
  async function runShard(shard) {
    const { campaignId, shardId, candidates, attempt } = validateShard(shard);

    const token = await claims.claim(campaignId, shardId);
    if (token === null) {
      metrics.count('shard claim conflicts');
      log.info({ shard: shardId, claim: 'held', result: 'busy', attempt });
      return 'busy';
    }
    const startedAt = clock.now();
    metrics.count('shard claims');
    log.info({ shard: shardId, claim: 'taken', lease: formatDuration(settings.claimLeaseMs), candidates: candidates.length, attempt });
    const lease = keepLease({ claims, campaignId, shardId, token, clock, logger: log });

    try {
      if (await sentState.isShardSent(campaignId, shardId)) {
        metrics.count('shards already sent');
        log.info({ shard: shardId, result: 'already-sent', attempt });
        return 'already-sent';
      }

      let sent = 0;
      for (const candidate of candidates) {
        if (lease.lost || !(await claims.holds(campaignId, shardId, token))) {
          metrics.count('shards lost mid-batch');
          log.warn({ shard: shardId, result: 'lost', msg: 'claim no longer ours; stopping', sent, elapsed: formatDuration(clock.now() - startedAt) });
          return 'lost';
        }
        if (!(await sentState.reserveCandidate(campaignId, candidate.candidateId, { workerId, shardId }))) {
          metrics.count('candidates already contacted');
          log.info({ shard: shardId, candidate: candidate.candidateId, msg: 'already contacted in this campaign; skipped' });
          continue;
        }
        const profile = await enrich(candidate);
        const receipt = await mailer.sendOutreach({ campaignId, candidate, profile });
        sent += 1;
        metrics.count('e-mails sent');
        log.info({
          shard: shardId,
          msg: 'outreach sent',
          candidate: candidate.candidateId,
          variant: receipt.variant,
          provider_message_id: receipt.messageId,
        });
        if (sent % PROGRESS_EVERY === 0) {
          log.info({ shard: shardId, progress: `${sent}/${candidates.length}`, elapsed: formatDuration(clock.now() - startedAt) });
        }
      }

      await sentState.markShardSent(campaignId, shardId, { workerId, sent, startedAt });
      metrics.time('batch duration', clock.now() - startedAt);
      log.info({ shard: shardId, result: 'sent', sent, elapsed: formatDuration(clock.now() - startedAt) });
      return 'sent';
    } finally {
      lease.stop();
      const released = await claims.release(campaignId, shardId, token);
      if (!released) metrics.count('claim releases not owned');
    }
  }

  /** The candidate's profile, or null if the lookup failed (the e-mail goes out without the opener). */
  async function enrich(candidate) {
    try {
      return await enrichment.lookup(candidate.candidateId);
    } catch (error) {
      metrics.count('enrichment fallbacks');
      log.warn({ candidate: candidate.candidateId, msg: 'enrichment failed; sending without opener', error: error.message });
      return null;
    }
  }

  return { workerId, runShard };
}
