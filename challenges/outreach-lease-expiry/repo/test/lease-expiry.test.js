// The lease-expiry reproduction: two outreach workers and one shard whose
// batch outlasts the claim lease, as shard-14 and shard-15 did on 2026-04-14.
//
// Time is scaled down and virtual (see test-support/simulation.js): the claim
// lease is 2 s instead of 30 min, an enrichment lookup takes 0.8 s and a send
// 0.5 s, so a three-candidate batch takes about 4 s, twice the lease, much as
// a 400-candidate batch now takes 42 min. Every run is the same.

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { createShardRunner } from '../src/shards/shard-runner.js';
import { claimKeyFor } from '../src/shards/claim-lock.js';
import { createSimulation, explain } from '../test-support/simulation.js';

const CAMPAIGN = 'be-reengage-q2';
/** Production's 30-minute lease, scaled like every other duration here. */
const CONFIG = { claimLeaseMs: 2_000 };

const CANDIDATES = [
  { candidateId: 'cand_7Qm2Lx', email: 'priya.raman@example.net', firstName: 'Priya' },
  { candidateId: 'cand_3Hd9Rw', email: 'tomasz.wolny@example.org', firstName: 'Tomasz' },
  { candidateId: 'cand_K8v1Ne', email: 'amara.osei@example.com', firstName: 'Amara' },
];

/** The board's offer number `attempt` of shard-14. */
function shard14(attempt) {
  return { campaignId: CAMPAIGN, shardId: 'shard-14', layout: 'v3', attempt, candidates: CANDIDATES };
}

function setUp() {
  const sim = createSimulation();
  const runner = (worker) => createShardRunner({ ...sim.depsFor(worker), config: CONFIG });
  return { sim, w0: runner('outreach-0'), w1: runner('outreach-1') };
}

/** How many e-mails each candidate got. */
function perCandidate(sends) {
  const counts = Object.fromEntries(CANDIDATES.map((c) => [c.candidateId, 0]));
  for (const send of sends) counts[send.candidateId] = (counts[send.candidateId] ?? 0) + 1;
  return counts;
}

function assertOneEachFor(sim, outcomes) {
  const counts = perCandidate(sim.sends);
  const wrong = Object.entries(counts).filter(([, n]) => n !== 1);
  assert.equal(
    wrong.length,
    0,
    `every candidate must get exactly one e-mail; got ${Object.entries(counts).map(([c, n]) => `${c}=${n}`).join(', ')}.` +
      ` Outcomes: outreach-0=${outcomes[0]}, outreach-1=${outcomes[1]}.${explain(sim.trace)}`,
  );
}

describe('the lease-expiry reproduction', () => {
  test('a batch that outlasts the claim lease e-mails every candidate once, from the worker sending it', async () => {
    const { sim, w0, w1 } = setUp();

    const outcomes = await sim.run([
      sim.at('outreach-0', 0, () => w0.runShard(shard14(1))),
      // outreach-1's next poll finds shard-14 not yet recorded as sent.
      sim.at('outreach-1', 2_200, () => w1.runShard(shard14(2))),
    ]);

    assertOneEachFor(sim, outcomes);
    const others = sim.sends.filter((s) => s.worker !== 'outreach-0');
    assert.equal(
      others.length,
      0,
      `outreach-0 was still working shard-14 and never stopped; the shard should have stayed its own, but ` +
        `${others.map((s) => `${s.worker} e-mailed ${s.candidateId}`).join(', ')}.${explain(sim.trace)}`,
    );
  });

  test('a worker that freezes for longer than its lease does not e-mail a shard it no longer holds', async () => {
    const { sim, w0, w1 } = setUp();
    sim.freezeAfterClaim('outreach-0', 20_000);

    const outcomes = await sim.run([
      sim.at('outreach-0', 0, () => w0.runShard(shard14(1))),
      sim.at('outreach-1', 19_500, () => w1.runShard(shard14(2))),
    ]);

    assertOneEachFor(sim, outcomes);
    const key = claimKeyFor(CAMPAIGN, 'shard-14');
    for (const send of sim.sends) {
      const holder = send.claims[key];
      assert.ok(
        holder === send.worker,
        `${send.worker} e-mailed ${send.candidateId} at +${(send.at / 1000).toFixed(3)}s while ` +
          `${holder ? `${holder} held ${key}` : `nobody held ${key}`}.${explain(sim.trace)}`,
      );
    }
  });

  test('a shard offered again after its batch completed sends nothing', async () => {
    const { sim, w0, w1 } = setUp();

    const [first] = await sim.run([sim.at('outreach-0', 0, () => w0.runShard(shard14(1)))]);
    assert.equal(first, 'sent', `the first batch returned ${first}.${explain(sim.trace)}`);
    const before = sim.sends.length;

    const [second] = await sim.run([sim.at('outreach-1', 60_000, () => w1.runShard(shard14(2)))]);

    assert.equal(sim.sends.length, before, `the second offer sent ${sim.sends.length - before} e-mails.${explain(sim.trace)}`);
    assertOneEachFor(sim, [first, second]);
  });
});
