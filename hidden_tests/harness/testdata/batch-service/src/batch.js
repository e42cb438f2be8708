// A fixture for the harness tests: a worker claims a shard with a lease, renews it
// with a heartbeat while it e-mails the shard's candidates, and checks before each
// send that it still owns the shard (FENCED) and reserves the candidate first.
import { FENCED, RENEW } from './policy.js';

export function createBatch({ workerId, store, mailer, config }) {
  let claims = 0;
  return {
    async run({ shard, candidates }) {
      const lock = `lock:${shard}`;
      const token = `${workerId}:${++claims}`;
      if (!(await store.setIfAbsent(lock, token, { ttlMs: config.leaseMs }))) return 'busy';
      const heartbeat = setInterval(() => {
        if (RENEW === 'checked') store.compareAndExpire(lock, token, config.leaseMs);
        else store.expire(lock, config.leaseMs);
      }, config.leaseMs / 3);
      try {
        for (const candidate of candidates) {
          if (FENCED && (await store.get(lock)) !== token) return 'lost';
          if (!(await store.setIfAbsent(`sent:${candidate}`, token))) continue;
          await mailer.send({ candidate });
        }
        return 'done';
      } finally {
        clearInterval(heartbeat);
        await store.compareAndDelete(lock, token);
      }
    },
  };
}
