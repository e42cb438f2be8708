// The world of the outreach scenarios: the candidates, the shard board, the
// store faults and the timings derived from the fault model.

const person = (candidateId, email, firstName) => ({ candidateId, email, firstName });
const PRIYA = person('cand_7Qm2Lx', 'priya.raman@example.net', 'Priya');
const TOMASZ = person('cand_3Hd9Rw', 'tomasz.wolny@example.org', 'Tomasz');
const AMARA = person('cand_K8v1Ne', 'amara.osei@example.com', 'Amara');
const LENA = person('cand_5Tz0Pb', 'lena.fischer@example.de', 'Lena');
const JONAS = person('cand_9Wc4Jy', 'jonas.berg@example.se', 'Jonas');

/** The incident's shard, in the order its candidates are e-mailed. */
const SHARD_14 = [PRIYA, TOMASZ, AMARA];

/**
 * The shard board. shard-14 is the incident's shard, cut to the fewest candidates
 * whose batch outlasts the lease by a whole candidate even when every call is as
 * fast as the model allows: a worker that loses its claim mid-batch, or wakes
 * from a freeze while the new holder is on a candidate, still has one ahead.
 * shard-15 holds the same candidates in another order; shard-16 one candidate
 * more, so that a worker that takes the shard over from a frozen one is still at
 * work when the frozen one, awake again, could have sent two more; shard-07
 * (layout v2) and shard-21 (layout v3) share Tomasz; shard-03 (layout v2) starts
 * with Priya, shard-14's first candidate.
 */
export function shardBoard(t) {
  const fastest = t.lookupMs[0] + t.sendMs[0];
  const size = Math.floor(t.leaseMs / fastest) + 2;
  if (size > SHARD_14.length) throw new Error(`a batch outlasts the ${t.leaseMs} ms lease only with ${size} candidates; add candidates to SHARD_14`);
  return {
    'shard-14': { layout: 'v3', candidates: SHARD_14.slice(0, size) },
    'shard-15': { layout: 'v3', candidates: [...SHARD_14.slice(1, size), SHARD_14[0]] },
    'shard-16': { layout: 'v3', candidates: [...SHARD_14.slice(0, size), LENA] },
    'shard-07': { layout: 'v2', candidates: [TOMASZ, LENA] },
    'shard-21': { layout: 'v3', candidates: [TOMASZ, JONAS] },
    'shard-03': { layout: 'v2', candidates: [PRIYA, JONAS] },
  };
}

/** Store calls that can renew a claim: the owner-checked one, and expire. */
export const RENEWALS = ['compareAndExpire', 'expire'];

/** Outreach-0's first renewal of a claim fails. */
export const failFirstRenewal = (args, call) => call.worker === 'outreach-0'
  && String(args[0]).startsWith('claim:') && call.failures === 0 && 'store timed out';

/** The store calls that write something other than a claim. */
export const CANDIDATE_WRITES = ['set', 'setIfAbsent', 'compareAndDelete', 'delete'];

/**
 * Fails a delivery's first call about a key that is not a claim, on the given
 * attempt only. Deliveries are made per schedule, so every schedule has its own.
 */
function failFirstNonClaimCall(attempt) {
  const failed = new WeakSet();
  return (args, call) => {
    if (String(args[0]).startsWith('claim:') || call.delivery?.attempt !== attempt || failed.has(call.delivery)) return false;
    failed.add(call.delivery);
    return 'store timed out';
  };
}

/** Fails a delivery's first write about a candidate, on its first attempt. */
export const failFirstCandidateWrite = failFirstNonClaimCall(1);

/** Fails a delivery's first read of what was sent, on its second attempt. */
export const failFirstReadOnRetry = failFirstNonClaimCall(2);

/**
 * The numbers of the dossier's fault model the worlds are built from.
 * @param {object | null} faultModel
 */
export function timingsOf(faultModel) {
  if (!faultModel) throw new Error('this suite explores the dossier\'s fault model; run it with one');
  const { remotes, delivery, leases, pauses } = faultModel;
  const claim = leases.find((l) => l.key.startsWith('claim:'));
  const leaseMs = claim.ttlMs;
  // Frozen far past the lease, but never longer than the model's longest freeze.
  const stallMs = pauses && (pauses.maxMs === null ? 10 * leaseMs : Math.min(pauses.maxMs, 10 * leaseMs));
  return {
    leaseMs,
    storeMs: remotes.store.latencyMs[1],
    lookupMs: remotes.enrichment.latencyMs,
    sendMs: remotes.provider.latencyMs,
    redeliver: (maxAttempts) => ({ everyMs: delivery.redeliveryAfterMs, maxAttempts }),
    stallMs,
    // Long enough for the lease to lapse and the other worker's next offer to take the shard.
    pauseMs: pauses && (pauses.maxMs === null ? leaseMs + delivery.redeliveryAfterMs : Math.min(pauses.maxMs, leaseMs + delivery.redeliveryAfterMs)),
    pauses,
    crashes: faultModel.crashes !== 'none',
  };
}
