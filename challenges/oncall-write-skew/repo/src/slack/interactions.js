/**
 * Slack interactions: the "Go off call" button of the nightly reminder. Slack
 * posts the click to /slack/interactions; the Slack bridge has already checked
 * its signature and acknowledged it within Slack's 3 s, and forwards each
 * click once.
 */

/**
 * Turns a click into an off-call request, or null for any other action.
 * Only the engineer named on a button may press it.
 *
 * @param {{ trigger_id: string, user: { username: string }, actions: { value: string }[] }} payload
 * @returns {{ requestId: string, team: string, user: string, via: 'slack-button' } | null}
 */
export function offCallRequestFrom(payload) {
  const value = payload.actions?.[0]?.value ?? '';
  const [action, team, user] = value.split(':');
  if (action !== 'off-call' || !team || !user) return null;
  if (payload.user?.username !== user) return null;
  return { requestId: `req_${payload.trigger_id}`, team, user, via: 'slack-button' };
}

/** The ephemeral reply Slack shows the engineer who pressed the button. */
export function replyText(outcome, team) {
  switch (outcome) {
    case 'off-call': return `You are off call for ${team}. Sleep well.`;
    case 'last-on-call': return `You are the last one on call for ${team}: you stay on call.`;
    case 'not-on-call': return `You are not on call for ${team}.`;
    default: return 'Something went wrong; you are still on call. Try again.';
  }
}
