// A worker host that misbehaves on purpose: the harness tests start it in place
// of worker/host.mjs to check that the supervisor survives whatever a worker
// process says. The misbehaviour is named in <repoDir>/behaviour.txt.

import fs from 'node:fs';
import net from 'node:net';
import { FrameReader, encodeFrame } from '../../frames.mjs';

const [repoDir] = process.argv.slice(2);
const behaviour = fs.readFileSync(`${repoDir}/behaviour.txt`, 'utf8').trim();
const channel = new net.Socket({ fd: 3, readable: true, writable: true });
const send = (message) => channel.write(encodeFrame(message));
const idle = (seq, events, extra = {}) => send({ t: 'idle', seq, events, output: { text: '', bytes: 0 }, draws: 0, ...extra });

/** What each behaviour answers to a command; the default plays a correct worker that never calls anything. */
const answers = {
  'oversized-frame': () => { const head = Buffer.alloc(4); head.writeUInt32BE(0xfffffff0); channel.write(head); },
  'not-json': () => { const body = Buffer.from('{"t": idle'); const head = Buffer.alloc(4); head.writeUInt32BE(body.length); channel.write(Buffer.concat([head, body])); },
  'wrong-seq': (c) => idle(c.seq + 1, []),
  'op-out-of-order': (c) => idle(c.seq, c.t === 'call' ? [{ k: 'op', id: 'op5', target: 'store', name: 'get', args: ['k'] }] : spawned(c)),
  'undeclared-target': (c) => idle(c.seq, c.t === 'call' ? [{ k: 'op', id: 'op1', target: 'shell', name: 'exec', args: ['rm -rf /'] }] : spawned(c)),
  'forged-settle': (c) => idle(c.seq, c.t === 'reset' ? [{ k: 'spawned', ok: true }, { k: 'settled', callId: '0:1', ok: true, value: 'sent' }] : []),
  'oversized-args': (c) => idle(c.seq, c.t === 'call' ? [{ k: 'op', id: 'op1', target: 'store', name: 'get', args: ['x'.repeat(100_000)] }] : spawned(c)),
  'unknown-event': (c) => idle(c.seq, c.t === 'reset' ? [{ k: 'spawned', ok: true }, { k: 'shell', command: 'id' }] : []),
  'malformed-output': (c) => send({ t: 'idle', seq: c.seq, events: spawned(c), output: 'lots' }),
  'draws-go-back': (c) => idle(c.seq, spawned(c), { draws: c.t === 'reset' ? 5 : 2 }),
  'exits-at-once': () => process.exit(0),
  'stack-trace': (c) => idle(c.seq, c.t === 'reset' ? [{ k: 'spawned', ok: false, error: 'Error: x\n    at /opt/racecase/harness/worker/host.mjs:1:1' }] : []),
};

function spawned(command) {
  return command.t === 'reset' ? [{ k: 'spawned', ok: true }] : [];
}

const reader = new FrameReader(1 << 24);
channel.on('data', (chunk) => {
  for (const command of reader.push(chunk)) (answers[behaviour] ?? ((c) => idle(c.seq, spawned(c))))(command);
});
channel.on('end', () => process.exit(0));
if (behaviour === 'chatty') send({ t: 'idle', seq: 99, events: [] });
send({ t: 'ready' });
if (behaviour === 'chatty') send({ t: 'idle', seq: 1, events: [], output: { text: '', bytes: 0 } });
