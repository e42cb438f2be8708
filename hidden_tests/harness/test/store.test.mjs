// Tests of the fake store's semantics and of which choices commute.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeStore } from '../store.mjs';
import { independent, takenFootprint } from '../events.mjs';

test('set-if-absent, expiry and compare-and-delete behave like Redis', () => {
  const store = new FakeStore(/^lock:/);
  assert.equal(store.apply('setIfAbsent', ['lock:a', 'blue', { ttlMs: 100 }], 'blue', 0), true);
  assert.equal(store.apply('setIfAbsent', ['lock:a', 'green', { ttlMs: 100 }], 'green', 50), false);
  assert.equal(store.apply('compareAndDelete', ['lock:a', 'green'], 'green', 60), false);
  assert.equal(store.apply('get', ['lock:a'], 'green', 99), 'blue');
  assert.equal(store.apply('get', ['lock:a'], 'green', 100), null, 'expired at its deadline');
  assert.equal(store.apply('setIfAbsent', ['lock:a', 'green'], 'green', 100), true);
  assert.equal(store.entry('lock:a', 100).claim, true);
  assert.equal(store.apply('compareAndDelete', ['lock:a', 'green'], 'green', 101), true);
});

test('leases renew only through their owner when compared, and always when not', () => {
  const store = new FakeStore(/^lock:/);
  store.apply('set', ['lock:s', 'blue:1', { ttlMs: 100 }], 'blue', 0);
  assert.equal(store.apply('compareAndExpire', ['lock:s', 'green:1', 1000], 'green', 50), false);
  assert.equal(store.apply('compareAndExpire', ['lock:s', 'blue:1', 1000], 'blue', 50), true);
  assert.equal(store.entry('lock:s', 1049).value, 'blue:1');
  assert.equal(store.apply('expire', ['lock:s', 10], 'green', 60), true);
  assert.equal(store.entry('lock:s', 70), undefined);
  assert.equal(store.apply('expire', ['lock:s', 10], 'green', 80), false);
});

test('compare-and-set, counters and initial contents', () => {
  const store = new FakeStore(/^lock:/, { 'stock:sku': '1' });
  assert.equal(store.apply('compareAndSet', ['stock:sku', '2', '1'], 'blue', 0), false);
  assert.equal(store.apply('compareAndSet', ['stock:sku', '1', '0'], 'blue', 0), true);
  assert.equal(store.apply('incrBy', ['stock:sku', 5], 'green', 0), 5);
  assert.equal(store.apply('incrBy', ['count', -1], 'green', 0), -1);
  assert.equal(store.apply('compareAndSet', ['new', null, 'x'], 'green', 0), true);
  assert.throws(() => store.apply('incrBy', ['new', 1], 'green', 0), /does not hold an integer/);
  assert.throws(() => store.apply('set', ['k', 1], 'green', 0), /value must be a string/);
  assert.throws(() => store.apply('set', ['k', 'v', { ttlMs: -1 }], 'green', 0), /ttlMs/);
});

test('only calls on different keys, reads, or different services commute', () => {
  const op = (worker, target, name, key) => ({ kind: 'op', worker, target, name, key, read: name === 'get' });
  assert.equal(independent(op('b', 'store', 'get', 'k'), op('g', 'store', 'get', 'k')), true);
  assert.equal(independent(op('b', 'store', 'set', 'k'), op('g', 'store', 'get', 'k')), false);
  assert.equal(independent(op('b', 'store', 'set', 'k'), op('g', 'store', 'set', 'j')), true);
  assert.equal(independent(op('b', 'locks', 'acquire', 'k'), op('g', 'locks', 'release', 'k')), false);
  assert.equal(independent(op('b', 'locks', 'acquire', 'k'), op('g', 'store', 'set', 'k')), true);
  assert.equal(independent(op('b', 'provider', 'send', 'k'), op('g', 'store', 'set', 'k')), true);
  assert.equal(independent(op('b', 'store', 'get', 'k'), op('b', 'store', 'get', 'j')), false, 'same worker');
  assert.equal(independent({ kind: 'time', worker: 'b' }, op('g', 'store', 'get', 'k')), false);
  assert.equal(independent({ kind: 'local', worker: 'b' }, op('g', 'store', 'set', 'k')), true);
});

test('a store call that changed nothing where it was taken commutes there with reads and with other such calls', () => {
  const op = (worker, name, key, more = {}) => ({ kind: 'op', worker, target: 'store', name, key, read: name === 'get', ...more });
  const refused = takenFootprint(op('b', 'setIfAbsent', 'k'), true);
  assert.equal(independent(refused, op('g', 'get', 'k')), true);
  assert.equal(independent(refused, takenFootprint(op('g', 'compareAndSet', 'k'), true)), true);
  assert.equal(independent(refused, op('g', 'compareAndSet', 'k')), false, 'a call not yet taken may write');
  assert.equal(independent(takenFootprint(op('b', 'setIfAbsent', 'k'), false), op('g', 'get', 'k')), false, 'it wrote');
  assert.equal(independent(takenFootprint(op('b', 'setIfAbsent', 'k', { service: true }), true), op('g', 'get', 'k')), false,
    'the count of its calls decides an injected failure');
  assert.equal(independent(refused, takenFootprint(op('b', 'get', 'j'), true)), false, 'same worker');
});
