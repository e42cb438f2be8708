/**
 * The nightly reminder (ROTA-240): at 22:00 in the team's time zone, when more
 * than one engineer of a team is on call, it posts to the team's Slack channel
 * who is on call tonight, with a "Go off call" button for each of them.
 * Pressing it sends an off-call request (src/slack/interactions.js).
 */

import { whoIsOnCall } from '../rota/who-is-on-call.js';

/**
 * The reminder message for a team, or null when it has one engineer on call
 * (or none: the pager's fallback policy covers that).
 *
 * @param {import('../db/sql-gateway.js').Database} db
 * @param {{ id: string, name: string, channel: string }} team a `teams` row
 * @returns {Promise<{ channel: string, text: string, buttons: { user: string, action: string }[] } | null>}
 */
export async function nightlyReminder(db, team) {
  const onCall = await whoIsOnCall(db, team.id);
  if (onCall.length < 2) return null;
  return {
    channel: team.channel,
    text: `${onCall.length} of you are on call for ${team.name} tonight (${onCall.join(', ')}). One can go off call; the pager keeps at least one.`,
    buttons: onCall.map((user) => ({ user, action: `off-call:${team.id}:${user}` })),
  };
}
