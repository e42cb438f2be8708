// A minimal consumer with the same contract as the flagship repository: the harness
// tests swap src/locks/job-lock.js for each variant in ../../variants/.
import { createLock } from '../locks/job-lock.js';

export function createConsumer({ workerId, store, provider, config }) {
  const lock = createLock({ store, workerId, ttlMs: config.lockTtlMs });
  return {
    async handle(message) {
      const token = await lock.acquire(message.jobId);
      if (!token) return 'busy';
      try {
        if (await store.get(`sent:${message.jobId}`)) return 'duplicate';
        await provider.send({ to: message.payload.recipient, subject: 'Shipped', body: '', dedupeKey: message.jobId });
        await store.set(`sent:${message.jobId}`, 'sent');
        return 'sent';
      } finally {
        await lock.release(message.jobId, token);
      }
    },
  };
}
