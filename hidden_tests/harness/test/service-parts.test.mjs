// A service that names the parts of its state its calls touch (services.mjs,
// touches) lets the reduction take calls on different parts as commuting:
// transactional's calls on two transactions. The reduced search must still
// reach every outcome of the search without reduction. The seeds are programs
// of random-transactions.mjs on which the search would miss outcomes if a
// commit touched only its own transaction, or a begin nothing others touch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generatedTransactions } from './random-transactions.mjs';
import { outcomesWith } from './outcomes.mjs';

for (const seed of [7, 8, 12, 14, 15, 20]) {
  test(`the reduced search reaches every outcome of the search without reduction: transactions ${seed}`, async () => {
    const [suite, repo] = generatedTransactions(seed);
    const all = await outcomesWith(false, suite, repo);
    const reduced = await outcomesWith(true, suite, repo);
    assert.equal(all.results.status, 'pass', JSON.stringify(all.results.tests.filter((t) => t.status !== 'pass')));
    assert.deepEqual([...reduced.outcomes].sort(), [...all.outcomes].sort());
    assert.ok(reduced.results.tests[0].schedules < all.results.tests[0].schedules);
  });
}
