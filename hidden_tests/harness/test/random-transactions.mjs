// Small generated programs for the reduction's test of a service that names the
// parts of its state its calls touch (services.transactional): two workers
// that each run a transaction of one or two statements on a rota of three rows
// (select, with or without forUpdate, update, insert, delete, then commit or
// roll back), under snapshot or serializable isolation, and try it once more
// when it is refused.
// The generator is seeded, so a seed names one program.

import { inlineRepo, subject } from './inline.mjs';
import { generator } from './random-programs.mjs';

/** One transaction's statements between begin and its end. */
function statements(pick) {
  const steps = {
    select: () => `seen = (await db.select(tx, 'rota', ${pick(["{ on: true }", '{}', "{ id: 'b' }"])}${pick(['', ', { forUpdate: true }'])})).length;`,
    update: () => `await db.update(tx, 'rota', '${pick(['a', 'b', 'c'])}', { on: seen > 1 });`,
    insert: () => `await db.insert(tx, 'rota', { id: 'd', on: true });`,
    remove: () => `await db.delete(tx, 'rota', '${pick(['a', 'c'])}');`,
  };
  const names = Object.keys(steps);
  return Array.from({ length: 1 + Math.floor(pick.random() * 2) }, () => steps[pick(names)]()).join('\n              ');
}

/** One worker's transaction, tried once more when it is refused. */
function transaction(pick) {
  return `
          for (let run = 0; run < 2; run++) {
            const tx = await db.begin('${pick(['snapshot', 'serializable'])}');
            try {
              ${statements(pick)}
              ${pick(['await db.commit(tx);', 'await db.commit(tx);', 'await db.rollback(tx);'])}
              break;
            } catch {
              await db.rollback(tx);
            }
          }`;
}

/** The suite and repository of the program of one seed. */
export function generatedTransactions(seed) {
  const random = generator(seed);
  const pick = Object.assign((options) => options[Math.floor(random() * options.length)], { random });
  const source = `
    export function createWorker({ worker, db }) {
      return {
        async handle() {
          let seen = 0;
          if (worker === 'blue') {${transaction(pick)}
          } else {${transaction(pick)}
          }
          return 'done';
        },
      };
    }`;
  const suite = ({ services }) => ({
    subject: subject({ db: { $: 'remote', name: 'db', methods: ['begin', 'select', 'insert', 'update', 'delete', 'commit', 'rollback'] } }),
    services: { db: services.transactional({ tables: { rota: { rows: [{ id: 'a', on: true }, { id: 'b', on: true }, { id: 'c', on: false }] } } }) },
    properties: { none: { end() {} } },
    scenarios: [{
      name: `transactions ${seed}`,
      deliveries: [{ worker: 'blue', job: 'job-1', at: 0 }, { worker: 'green', job: 'job-2', at: 0 }],
      limits: { maxLatencyMs: 100, maxDelays: 0, maxWork: 200_000 },
      tests: [{ name: 'every schedule is explored', property: 'none' }],
    }],
  });
  return [suite, inlineRepo({ 'src/worker.js': source })];
}
