// A fixture suite for the harness tests: two opposite transfers on the lock service.
export default {
  subject: {
    module: 'src/transfers.js',
    factory: 'createTransfers',
    method: 'transfer',
    deps: {
      locks: { $: 'remote', name: 'locks', methods: ['acquire', 'tryAcquire', 'release'] },
      ledger: { $: 'remote', name: 'ledger', methods: ['post'] },
    },
    message: (job) => ({ from: job.split('>')[0], to: job.split('>')[1], amount: 10 }),
    acked: (outcome) => outcome === 'done',
  },
  effects: [{ target: 'ledger', method: 'post', label: 'posting' }],
  claimKeys: '^acct:',
  scenarios: [
    {
      name: 'opposite transfers at once',
      deliveries: [{ worker: 'blue', job: 'A>B', at: 0 }, { worker: 'green', job: 'B>A', at: 0 }],
      tests: [
        { name: 'every transfer completes', property: 'allDeliveriesAcked' },
        { name: 'every transfer is posted once', property: 'exactlyOncePerJob' },
      ],
    },
  ],
};
