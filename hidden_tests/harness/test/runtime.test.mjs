// The worker realm's runtime behaves like Node.js for what services use, with
// time and randomness virtual. Each case runs learner-like code in a fresh realm
// and compares what it computed with what this (real) Node.js computes.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import util from 'node:util';
import { evaluate, runInRealm, settle } from './runtime-helpers.mjs';

test('Buffer and text encodings convert like Node.js', async () => {
  const got = await evaluate(`
    const b = Buffer.from('héllo €🙂', 'utf8');
    export const result = JSON.stringify({
      hex: b.toString('hex'), base64: b.toString('base64'), url: b.toString('base64url'),
      back: Buffer.from(b.toString('base64'), 'base64').toString(), latin1: Buffer.from('ÿa', 'latin1').toString('hex'),
      concat: Buffer.concat([Buffer.from('ab'), Buffer.from('cd')]).toString(), length: Buffer.byteLength('€'),
      isBuffer: Buffer.isBuffer(b), encoder: Array.from(new TextEncoder().encode('€')), decoder: new TextDecoder().decode(new Uint8Array([0xe2, 0x82, 0xac])),
      atob: atob(btoa('racecase')), json: Buffer.from('hi').toJSON(), u32: Buffer.from([0, 0, 1, 0]).readUInt32BE(0),
    });`);
  const b = Buffer.from('héllo €🙂', 'utf8');
  assert.deepEqual(got, {
    hex: b.toString('hex'), base64: b.toString('base64'), url: b.toString('base64url'),
    back: 'héllo €🙂', latin1: Buffer.from('ÿa', 'latin1').toString('hex'),
    concat: 'abcd', length: 3, isBuffer: true, encoder: [0xe2, 0x82, 0xac], decoder: '€',
    atob: 'racecase', json: { type: 'Buffer', data: [104, 105] }, u32: 256,
  });
});

test('util.format and console.log print like Node.js', async () => {
  const cases = [
    ['%s has %d items', 'cart', 3],
    [{ a: 1, nested: { b: [1, 2, { c: 'x' }] } }],
    ['plain', 42, null, true],
    [[1, 2, 3], 'x'],
    ['%j', { json: true }],
  ];
  const { sink, realm } = await runInRealm({
    'main.js': `for (const args of ${JSON.stringify(cases)}) console.log(...args);
      console.log(new Map([['k', 1]]), new Set([1, 'two']));`,
  });
  await settle(realm);
  const expected = cases.map((args) => util.format(...args)).join('\n') + '\n' + util.format(new Map([['k', 1]]), new Set([1, 'two'])) + '\n';
  assert.equal(sink.written, expected);
});

test('errors show only frames inside the repository', async () => {
  const got = await evaluate(`
    function inner() { return new Error('boom'); }
    export const result = JSON.stringify(inner().stack);`);
  assert.match(got, /^Error: boom\n {4}at inner \(main\.js:2:31\)/);
  assert.doesNotMatch(got, /racecase|harness|node:internal|realm=/);
});

test('a remote call made through a built-in names its caller in the repository; stacks taken after it keep every frame', async () => {
  const { realm, namespace, sink } = await runInRealm({ 'main.js': `
    export let stack = '';
    function inner(store) { return ['k'].map(store.get); }
    function outer(store) { const calls = inner(store); stack = new Error('after').stack; return calls; }
    export function createWorker({ store }) { return { handle: () => outer(store) }; }` });
  realm.entry.start(namespace, 'createWorker', JSON.stringify({ store: { $: 'remote', name: 'store', methods: ['get'] } }));
  await settle(realm);
  realm.entry.call('c1', 'handle', '[]');
  await settle(realm);
  assert.deepEqual(sink.events.filter((e) => e.k === 'op').map((e) => e.site), ['main.js:3:42']);
  assert.deepEqual(namespace.stack.split('\n').map((line) => line.trim()), ['Error: after', 'at outer (main.js:4:65)', 'at Object.handle (main.js:5:70)']);
});

test('a stack formatted by V8 itself names no realm: code cannot count the schedules before it', async () => {
  // A getter the runtime's stack formatting runs: a stack taken inside it is formatted by V8's own formatter.
  const files = { 'main.js': `
    export let seen = '';
    Object.defineProperty(Object.prototype, 'name', { configurable: true, get() { if (!seen) seen = new Error('inside').stack; return undefined; } });
    export function createWorker({ store }) { return { handle: () => store.get('k') }; }` };
  const stacks = [];
  for (let i = 0; i < 2; i++) {
    const { realm, namespace, repoDir } = await runInRealm(files);
    realm.entry.start(namespace, 'createWorker', JSON.stringify({ store: { $: 'remote', name: 'store', methods: ['get'] } }));
    await settle(realm);
    realm.entry.call('c1', 'handle', '[]');
    await settle(realm);
    stacks.push(namespace.seen.split(repoDir).join('<repo>'));
  }
  assert.match(stacks[0], /^Error: inside/);
  assert.doesNotMatch(stacks[0], /realm=/);
  assert.equal(stacks[1], stacks[0]);
});

test('URL and path parse like Node.js', async () => {
  const got = await evaluate(`
    import path from 'node:path';
    import { fileURLToPath } from 'node:url';
    const u = new URL('/v1/payments/p%201/capture?x=1&y=two#frag', 'https://api.example:8443');
    u.searchParams.append('z', 'a b');
    export const result = JSON.stringify({
      href: u.href, host: u.host, pathname: u.pathname, search: u.search, x: u.searchParams.get('x'),
      join: path.join('/a/b', '../c', 'd.js'), dirname: path.dirname('/a/b/c.js'), ext: path.extname('x.test.js'),
      file: fileURLToPath('file:///work/repo/src/a.js'), invalid: URL.canParse('not a url'),
    });`);
  const u = new URL('/v1/payments/p%201/capture?x=1&y=two#frag', 'https://api.example:8443');
  u.searchParams.append('z', 'a b');
  assert.deepEqual(got, {
    href: u.href, host: u.host, pathname: u.pathname, search: u.search, x: '1',
    join: '/a/c/d.js', dirname: '/a/b', ext: '.js', file: '/work/repo/src/a.js', invalid: false,
  });
});

test('hashes and HMACs match node:crypto; random ids repeat per worker and differ between workers', async () => {
  const source = `
    import { createHash, createHmac, randomUUID, randomBytes, timingSafeEqual } from 'node:crypto';
    export const result = JSON.stringify({
      sha: createHash('sha256').update('racecase').update(Buffer.from([1, 2])).digest('hex'),
      hmac: createHmac('sha1', 'key').update('msg').digest('base64'),
      uuid: randomUUID(), bytes: randomBytes(4).toString('hex'), random: Math.random(),
      same: timingSafeEqual(Buffer.from('ab'), Buffer.from('ab')),
    });`;
  const blue = await evaluate(source, { worker: 'blue' });
  assert.equal(blue.sha, crypto.createHash('sha256').update('racecase').update(Buffer.from([1, 2])).digest('hex'));
  assert.equal(blue.hmac, crypto.createHmac('sha1', 'key').update('msg').digest('base64'));
  assert.match(blue.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(blue.same, true);
  assert.deepEqual(await evaluate(source, { worker: 'blue' }), blue, 'a replayed schedule draws the same numbers');
  const green = await evaluate(source, { worker: 'green' });
  assert.notEqual(green.uuid, blue.uuid, 'two workers must not draw the same ids');
});

test('EventEmitter, once() and AbortSignal behave like Node.js', async () => {
  const got = await evaluate(`
    import { EventEmitter, once } from 'node:events';
    const e = new EventEmitter();
    const seen = [];
    e.on('x', (v) => seen.push(v));
    e.once('x', (v) => seen.push('once ' + v));
    e.emit('x', 1); e.emit('x', 2);
    const waited = once(e, 'ready');
    e.emit('ready', 'go');
    const c = new AbortController(); c.abort();
    let threw;
    try { e.emit('error', new Error('bad')); } catch (err) { threw = err.message; }
    export const result = JSON.stringify({ seen, waited: await waited, aborted: c.signal.aborted, reason: c.signal.reason.name, threw, count: e.listenerCount('x') });`);
  assert.deepEqual(got, { seen: [1, 'once 1', 2], waited: ['go'], aborted: true, reason: 'AbortError', threw: 'bad', count: 1 });
});

test('assert and util.isDeepStrictEqual judge like Node.js', async () => {
  const got = await evaluate(`
    import assert from 'node:assert/strict';
    import { isDeepStrictEqual } from 'node:util';
    const out = [];
    try { assert.deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }); out.push('equal'); } catch { out.push('unequal'); }
    try { assert.equal(1, '1'); out.push('loose'); } catch (e) { out.push(e.code); }
    try { await assert.rejects(Promise.reject(new TypeError('t')), TypeError); out.push('rejects'); } catch { out.push('no'); }
    out.push(isDeepStrictEqual(new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])), isDeepStrictEqual([0], [-0]));
    export const result = JSON.stringify(out);`);
  assert.deepEqual(got, ['equal', 'ERR_ASSERTION', 'rejects', true, false]);
});

test('timers and Date run on the virtual clock the supervisor moves', async () => {
  const { namespace, realm, sink } = await runInRealm({
    'main.js': `
      import { setTimeout as sleep } from 'node:timers/promises';
      export const log = [];
      export async function run() {
        log.push(Date.now(), performance.now());
        await sleep(250);
        log.push(Date.now(), new Date().toISOString());
        return 'done';
      }`,
  });
  const done = namespace.run();
  await settle(realm);
  const timer = sink.events.find((e) => e.k === 'timer');
  assert.equal(timer.delay, 250);
  sink.now = 250;
  realm.entry.fire(timer.id);
  await settle(realm);
  assert.equal(await done, 'done');
  const [start, perf, later, iso] = namespace.log;
  assert.equal(perf, 0);
  assert.equal(later - start, 250);
  assert.equal(iso, new Date(later).toISOString());
  assert.equal(Object.getPrototypeOf(Date).now?.(), undefined, 'the real Date constructor stays out of reach');
});

test('I/O built-ins import, and say clearly that they are not available when used', async () => {
  const got = await evaluate(`
    import fs, { readFileSync } from 'node:fs';
    import http from 'node:http';
    const out = [];
    for (const f of [() => readFileSync('x'), () => fs.promises.readFile('x'), () => http.createServer(), () => fetch('http://x')]) {
      try { await f(); out.push('ran'); } catch (e) { out.push(e.message); }
    }
    export const result = JSON.stringify(out);`);
  assert.match(got[0], /^node:fs \(readFileSync\) is not available to workers in the hidden tests/);
  assert.match(got[1], /^node:fs \(promises\.readFile\) is not available/);
  assert.match(got[2], /^node:http \(createServer\) is not available/);
  assert.match(got[3], /fetch/);
});
