/**
 * Copy of the re-engagement e-mail, and the A/B split of its subject line.
 *
 * Copy is owned by the recruiting team (RC-COPY queue). Since 2026-04-09 the
 * campaign tests two subject lines. A candidate's variant is a pure function
 * of campaign and candidate id, so every send to the same candidate in the
 * same campaign uses the same variant; the analytics team's nightly A/B dedupe
 * job checks that no candidate ended up in both arms.
 */

import { createHash } from 'node:crypto';

/** @typedef {'A' | 'B'} Variant */

const SUBJECTS = Object.freeze({
  A: (firstName) => `${firstName}, still open to backend roles?`,
  B: (firstName) => `New backend roles picked for you, ${firstName}`,
});

/**
 * The subject-line variant of a candidate in a campaign.
 * @param {string} campaignId
 * @param {string} candidateId
 * @returns {Variant}
 */
export function assignVariant(campaignId, candidateId) {
  const digest = createHash('sha256').update(`${campaignId}/${candidateId}`).digest();
  return digest[0] % 2 === 0 ? 'A' : 'B';
}

/**
 * Renders the e-mail for one candidate.
 *
 * @param {object} input
 * @param {string} input.firstName
 * @param {import('../enrichment/client.js').Profile | null} input.profile null when enrichment failed
 * @param {Variant} input.variant
 * @returns {{ subject: string, body: string }}
 */
export function renderOutreach({ firstName, profile, variant }) {
  const opener = profile?.currentTitle && profile?.currentCompany
    ? `Congrats on your role as ${profile.currentTitle} at ${profile.currentCompany}.`
    : 'I hope the year has been good to you so far.';
  return {
    subject: SUBJECTS[variant](firstName),
    body: [
      `Hi ${firstName},`,
      '',
      opener,
      'We spoke a while ago about backend roles, and a few teams we work with are',
      'hiring again this quarter: platform, payments infrastructure and data.',
      '',
      'Would a 20-minute call next week be useful? Reply with a time that suits you,',
      'or "not now" and we will not follow up on this campaign.',
      '',
      'Fernhill Talent',
    ].join('\n'),
  };
}
