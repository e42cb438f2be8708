// The fixture's visible test: two workers handle the same job at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createConsumer } from '../src/worker/consumer.js';

function memoryStore() {
  const data = new Map();
  const hop = () => new Promise((resolve) => setImmediate(resolve));
  return {
    async get(key) { await hop(); return data.get(key) ?? null; },
    async set(key, value) { await hop(); data.set(key, value); },
    async setIfAbsent(key, value) { await hop(); if (data.has(key)) return false; data.set(key, value); return true; },
    async compareAndDelete(key, expected) { await hop(); if (data.get(key) !== expected) return false; data.delete(key); return true; },
    async delete(key) { await hop(); data.delete(key); },
  };
}

test('two workers send one notification', async () => {
  const store = memoryStore();
  const sent = [];
  const provider = { async send(message) { console.log(`sending ${message.dedupeKey}`); sent.push(message); return { providerMessageId: 'p1' }; } };
  const config = { lockTtlMs: 30000 };
  const blue = createConsumer({ workerId: 'blue', store, provider, config });
  const green = createConsumer({ workerId: 'green', store, provider, config });
  const message = { id: 'm1', jobId: 'job-7', attempt: 1, payload: { recipient: 'a@b.example' } };
  await Promise.all([blue.handle(message), green.handle(message)]);
  assert.equal(sent.length, 1);
});

test('a lone worker sends', async () => {
  const sent = [];
  const consumer = createConsumer({ workerId: 'blue', store: memoryStore(), provider: { async send(m) { sent.push(m); return {}; } }, config: { lockTtlMs: 1 } });
  assert.equal(await consumer.handle({ id: 'm1', jobId: 'job-1', attempt: 1, payload: { recipient: 'x' } }), 'sent');
});
