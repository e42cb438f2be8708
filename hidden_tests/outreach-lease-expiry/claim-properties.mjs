// The two claim properties of the outreach suite: e-mails go out only from the
// worker holding the shard, and a worker that lost its shard stops. Both read
// each claim's history, which the store keeps after every call on it.

/** The campaign the scenarios run; its shards are claimed under claimKey. */
export const CAMPAIGN = 'be-reengage-q2';

const claimKey = (shardId) => `claim:${CAMPAIGN}:${shardId}`;

/**
 * E-mails go out only from the worker holding the shard: no candidate of a shard is
 * e-mailed by a worker while another worker's claim on that shard is live.
 */
export const sendsOnlyByHolder = {
  end(world) {
    const [first] = sendsUnderOthersClaims(world);
    if (!first) return;
    const { send, holder, key } = first;
    world.violate('sendsOnlyByHolder',
      `${send.worker} e-mailed ${send.key} at ${send.at} ms while ${holder.writer} held ${key}: `
      + `the shard was no longer ${send.worker}'s, but it kept sending`,
      [holder.step, send.step]);
  },
};

/** The e-mails sent while another worker's claim on their shard was live, in order. */
function sendsUnderOthersClaims(world) {
  const found = [];
  for (const send of world.sends) {
    if (send.target !== 'provider') continue;
    const key = claimKey(send.job);
    const holder = world.store.history(key).filter((h) => h.step.step < send.step.step).at(-1);
    const live = holder && holder.writer && (holder.expiresAt === null || holder.expiresAt > send.at);
    if (live && holder.writer !== send.worker) found.push({ send, holder, key });
  }
  return found;
}

/**
 * A worker that has lost its shard stops: while another worker's claim on the shard
 * is live, a worker e-mails at most one of its candidates, the one it had already
 * checked its claim for when it froze (no check can cover an e-mail a freeze
 * interrupts after the check; the per-candidate reservation keeps that one single).
 */
export const stopsOnceLost = {
  end(world) {
    const late = new Map();
    for (const { send, holder, key } of sendsUnderOthersClaims(world)) {
      const sends = [...(late.get(`${send.worker} ${key}`) ?? []), send];
      late.set(`${send.worker} ${key}`, sends);
      if (sends.length > 1) {
        world.violate('stopsOnceLost',
          `${send.worker} e-mailed ${sends.map((s) => s.key).join(' and ')} while ${holder.writer} held ${key}: `
          + `after waking it went on to another candidate of a shard that was no longer its own`,
          sends.map((s) => s.step));
        return;
      }
    }
  },
};
