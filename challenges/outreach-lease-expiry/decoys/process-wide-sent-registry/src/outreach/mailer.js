/**
 * Sends outreach e-mails through the e-mail provider.
 *
 * The provider delivers whatever it accepts: once send() resolves, the e-mail
 * is in the candidate's inbox. It keeps our tags for reporting, but it does
 * not drop a second e-mail with the same tags. Not e-mailing a candidate
 * twice is our job.
 *
 * @typedef {object} OutgoingEmail
 * @property {string} to
 * @property {string} subject
 * @property {string} body
 * @property {string} campaignId
 * @property {string} candidateId
 * @property {string} variant
 *
 * @typedef {object} EmailProvider
 * @property {(email: OutgoingEmail) => Promise<{ messageId: string }>} send
 *
 * @typedef {object} SendReceipt
 * @property {string} messageId the provider's id
 * @property {string} variant the subject line used
 */

import { nullLogger } from '../logger.js';
import { assignVariant, renderOutreach } from './templates.js';

/**
 * Every candidate this process has e-mailed (or is e-mailing), per campaign:
 * `${campaignId}:${candidateId}`. A candidate is entered before the provider
 * call, in the same synchronous step as the check, so two batches that overlap
 * after a claim changed hands cannot both send. The set is registered on the
 * global object, so every poller slot and every copy of this module in the
 * worker process consults the same one.
 * @type {Set<string>}
 */
const emailed = (globalThis[Symbol.for('outreach.emailedCandidates')] ??= new Set());

/**
 * @param {object} options
 * @param {EmailProvider} options.provider
 * @param {import('../logger.js').Logger} [options.logger]
 */
export function createMailer({ provider, logger = nullLogger }) {
  if (typeof provider?.send !== 'function') throw new TypeError('createMailer: provider.send is required');
  return {
    /**
     * Renders and sends the campaign e-mail to one candidate.
     *
     * @param {object} input
     * @param {string} input.campaignId
     * @param {import('../shards/shard.js').Candidate} input.candidate
     * @param {import('../enrichment/client.js').Profile | null} input.profile
     * @returns {Promise<SendReceipt>}
     */
    async sendOutreach({ campaignId, candidate, profile }) {
      const variant = assignVariant(campaignId, candidate.candidateId);
      const seen = `${campaignId}:${candidate.candidateId}`;
      if (emailed.has(seen)) {
        logger.info({ candidate: candidate.candidateId, msg: 'already e-mailed; skipped' });
        return { messageId: 'skipped-duplicate', variant };
      }
      emailed.add(seen);
      const { subject, body } = renderOutreach({ firstName: candidate.firstName, profile, variant });
      const { messageId } = await provider.send({
        to: candidate.email,
        subject,
        body,
        campaignId,
        candidateId: candidate.candidateId,
        variant,
      });
      logger.debug({ candidate: candidate.candidateId, msg: 'provider accepted', provider_message_id: messageId });
      return { messageId, variant };
    },
  };
}

/**
 * A provider for local runs: prints instead of sending.
 * @param {(line: string) => void} write
 * @returns {EmailProvider}
 */
export function createSandboxProvider(write) {
  let sent = 0;
  return {
    async send({ to, subject, candidateId }) {
      sent += 1;
      const messageId = `sbx-${String(sent).padStart(5, '0')}`;
      write(`[sandbox provider] to=${to} candidate=${candidateId} subject=${JSON.stringify(subject)} id=${messageId}`);
      return { messageId };
    },
  };
}
