// Hidden tests for "Two outreach agents emailed the same candidate list after the
// claim-lock expired".
//
// Each scenario is explored in every schedule: every order in which the workers'
// store calls, enrichment lookups and sends can arrive, and every point at which a
// heartbeat, a poll of the shard board or a wake-up can fire, within the fault model
// in the repository README: the claim lease is 2 s in these tests, a lookup takes
// 0.8-1 s and a send 0.4-0.6 s (so a three-candidate batch outlasts the lease),
// store calls complete within 1 s, and a worker can freeze or die right after it
// claims a shard.

const CAMPAIGN = 'be-reengage-q2';
const STORE = ['get', 'set', 'setIfAbsent', 'compareAndDelete', 'compareAndExpire', 'expire', 'delete'];

const person = (candidateId, email, firstName) => ({ candidateId, email, firstName });
const PRIYA = person('cand_7Qm2Lx', 'priya.raman@example.net', 'Priya');
const TOMASZ = person('cand_3Hd9Rw', 'tomasz.wolny@example.org', 'Tomasz');
const AMARA = person('cand_K8v1Ne', 'amara.osei@example.com', 'Amara');
const LENA = person('cand_5Tz0Pb', 'lena.fischer@example.de', 'Lena');
const JONAS = person('cand_9Wc4Jy', 'jonas.berg@example.se', 'Jonas');

/** The shard board: shard-14 is the incident's shard; 07 (layout v2) and 21 (v3) share Tomasz. */
const SHARDS = {
  'shard-14': { layout: 'v3', candidates: [PRIYA, TOMASZ, AMARA] },
  'shard-07': { layout: 'v2', candidates: [TOMASZ, LENA] },
  'shard-21': { layout: 'v3', candidates: [TOMASZ, JONAS] },
};
const idsOf = (...shards) => [...new Set(shards.flatMap((s) => SHARDS[s].candidates.map((c) => c.candidateId)))];

const claimKey = (shardId) => `claim:${CAMPAIGN}:${shardId}`;

/** Claim history of each schedule: key -> [{ step, writer, expiresAt }] after each store call on it. */
const claimHistory = new WeakMap();

/**
 * E-mails go out only from the worker holding the shard: no candidate of a shard is
 * e-mailed by a worker while another worker's claim on that shard is live.
 */
const sendsOnlyByHolder = {
  onStore(world, op, before, value, step) {
    const key = op.args?.[0];
    if (typeof key !== 'string' || !key.startsWith('claim:')) return;
    const history = claimHistory.get(world) ?? new Map();
    claimHistory.set(world, history);
    const entry = world.store.entry(key, world.now);
    const list = history.get(key) ?? [];
    list.push({ step, writer: entry?.writer ?? null, expiresAt: entry ? entry.expiresAt : null });
    history.set(key, list);
  },
  end(world) {
    const history = claimHistory.get(world) ?? new Map();
    for (const send of world.sends) {
      if (send.target !== 'provider') continue;
      const key = claimKey(send.job);
      const last = (history.get(key) ?? []).filter((h) => h.step.step < send.step.step).at(-1);
      const live = last && last.writer && (last.expiresAt === null || last.expiresAt > send.at);
      if (live && last.writer !== send.worker) {
        world.violate('sendsOnlyByHolder',
          `${send.worker} e-mailed ${send.key} at ${send.at} ms while ${last.writer} held ${key}: `
          + `the shard was no longer ${send.worker}'s, but it kept sending`,
          [last.step, send.step]);
        return;
      }
    }
  },
};

export default {
  subject: {
    module: 'src/shards/shard-runner.js',
    factory: 'createShardRunner',
    method: 'runShard',
    deps: {
      workerId: { $: 'worker' },
      store: { $: 'remote', name: 'store', methods: STORE },
      provider: { $: 'remote', name: 'provider', methods: ['send'] },
      enrichment: { $: 'remote', name: 'enrichment', methods: ['lookup'] },
      clock: { $: 'clock' },
      config: { claimLeaseMs: 2_000 },
    },
    message: (job, attempt) => ({ campaignId: CAMPAIGN, shardId: job, attempt, ...SHARDS[job] }),
    acked: (outcome) => outcome !== 'busy',
  },
  effects: [
    {
      target: 'provider',
      method: 'send',
      label: 'e-mail',
      key: ([email]) => String(email?.candidateId),
      reply: (args, call) => ({ messageId: `pm_${call.id}` }),
      latencyMs: [400, 600],
    },
    {
      target: 'enrichment',
      method: 'lookup',
      label: 'profile lookup',
      key: ([candidateId]) => `lookup:${candidateId}`,
      reply: ([candidateId]) => ({ candidateId, currentTitle: 'Staff Engineer', currentCompany: 'Quillpay', refreshedAt: '2026-04-14T08:12:00.000Z' }),
      latencyMs: [800, 1000],
    },
  ],
  // Shard claims live under claim:<campaignId>:<shardId> (see the repository README).
  claimKeys: '^claim:',
  properties: { sendsOnlyByHolder },
  limits: { maxLatencyMs: 1000, maxDelays: 0, horizonMs: 120_000 },
  scenarios: [
    {
      name: 'a batch that outlasts the lease, offered to a second worker while the first is still sending, and again after',
      redeliver: { everyMs: 2_000, maxAttempts: 3 },
      expect: idsOf('shard-14'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', at: 2_200 },
      ],
      tests: [
        { name: 'each candidate gets exactly one e-mail when the batch outlasts the lease', property: 'exactlyOncePerJob' },
        { name: 'a worker still sending keeps its shard: no other worker e-mails its candidates', property: 'sendsOnlyByHolder' },
        { name: 'nobody takes over, renews or deletes a live claim another worker holds', property: 'claimsRespected' },
        { name: 'a worker that finishes its batch releases its claim', property: 'claimsReleased' },
      ],
    },
    {
      name: 'the first worker freezes past its lease right after claiming, and wakes while the second is sending',
      stall: { worker: 'outreach-0', ms: 20_000 },
      expect: idsOf('shard-14'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', at: 19_500 },
      ],
      tests: [
        { name: 'after a freeze longer than the lease, each candidate still gets exactly one e-mail', property: 'exactlyOncePerJob' },
        { name: 'a worker that wakes from a freeze sends nothing for a shard it no longer holds', property: 'sendsOnlyByHolder' },
        { name: 'a worker that wakes from a freeze does not renew or release the new holder\'s claim', property: 'claimsRespected' },
      ],
    },
    {
      name: 'a worker dies right after claiming the shard',
      crash: { worker: 'outreach-0' },
      redeliver: { everyMs: 2_000, maxAttempts: 8 },
      expect: idsOf('shard-14'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-14', at: 0 },
        { worker: 'outreach-1', job: 'shard-14', at: 1_000 },
      ],
      tests: [
        { name: 'the shard of a worker that died is e-mailed by another worker once the lease lapses', property: 'exactlyOncePerJob' },
      ],
    },
    {
      name: 'two layouts: a candidate in an old shard and a new shard worked at the same time',
      expect: idsOf('shard-07', 'shard-21'),
      deliveries: [
        { worker: 'outreach-0', job: 'shard-07', at: 0 },
        { worker: 'outreach-1', job: 'shard-21', at: 0 },
      ],
      tests: [
        { name: 'a candidate who is in two shards gets exactly one e-mail', property: 'exactlyOncePerJob' },
      ],
    },
  ],
};
