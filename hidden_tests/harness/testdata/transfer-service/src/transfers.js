// A fixture for the harness tests: a transfer takes both account locks, in the
// order the ORDER environment of the fixture chooses (see ../../transfer-suite.mjs).
import { order } from './order.js';

export function createTransfers({ locks, ledger }) {
  return {
    async transfer({ from, to, amount }) {
      const [first, second] = order(from, to);
      await locks.acquire(`acct:${first}`);
      await locks.acquire(`acct:${second}`);
      try {
        await ledger.post({ from, to, amount });
        return 'done';
      } finally {
        await locks.release(`acct:${second}`);
        await locks.release(`acct:${first}`);
      }
    },
  };
}
