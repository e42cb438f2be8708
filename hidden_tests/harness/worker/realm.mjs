// One schedule's world inside a worker process: a brand-new JavaScript realm
// (its own global object and its own copies of every built-in object) with
// the runtime of runtime/*.js installed, and nothing of this process reachable
// from it. The realm talks to the process through one bridge function that
// takes and returns primitives; when the schedule ends the bridge goes dead,
// so code left over from an earlier schedule can never act in a later one.

import vm from 'node:vm';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** The runtime's parts: core, clock, errors and builtins are installed in every realm, the rest when code needs them. */
const RUNTIME_PARTS = [
  'core', 'clock', 'errors', 'builtins', 'inspect', 'encoding', 'buffer', 'events', 'process', 'console',
  'url', 'util', 'assert', 'crypto', 'timers',
];

/** Wall-clock origin of virtual time: the incident's morning. */
const EPOCH_MS = Date.UTC(2026, 2, 14, 13, 27, 0);

/** URL components the runtime may set through the bridge. */
const URL_PARTS = new Set(['protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash']);

const runtimeDir = fileURLToPath(new URL('./runtime/', import.meta.url));

/** Compiles the runtime once per process; each realm runs the same compiled scripts. */
export function compileRuntime() {
  return new Map(RUNTIME_PARTS.map((part) => [part, new vm.Script(fs.readFileSync(`${runtimeDir}${part}.js`, 'utf8'), {
    filename: `racecase:runtime/${part}.js`,
  })]));
}

/** A small stable number per worker name: its pid and the seed of its randomness. */
function numberOf(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

function digest(algorithm, keyBase64, dataBase64) {
  try {
    const data = Buffer.from(dataBase64, 'base64');
    const hash = keyBase64 ? crypto.createHmac(algorithm, Buffer.from(keyBase64, 'base64')) : crypto.createHash(algorithm);
    return hash.update(data).digest('base64');
  } catch {
    return `!Digest method not supported: ${algorithm}`;
  }
}

function parseUrl(input, base, part, value) {
  try {
    const url = base ? new URL(input, base) : new URL(input);
    if (part && URL_PARTS.has(part)) url[part] = value;
    const { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash } = url;
    return JSON.stringify({ href, origin, protocol, username, password, host, hostname, port, pathname, search, hash });
  } catch {
    return '!Invalid URL';
  }
}

/** A fresh realm for one schedule of one worker. */
export class Realm {
  /** The realm's global context, for compiling the learner's modules into it. */
  context;
  /** The runtime's entry points: start, call, reply, fire, nextImmediate, runNextImmediate, unhandled, error, json, builtin*. */
  entry;
  #live = true;

  /**
   * @param {{ scripts: Map<string, vm.Script>, worker: string, repoDir: string, module: string, sink: object }} options
   *   sink receives what the learner's code asks of the world: op, timer, rearm, clear, write, settled,
   *   spawned, uncaught, exit, and answers now, request() (the delivery being handled) and draw()
   *   (whether the code's next random draw is one the explorer tries the other way)
   */
  constructor({ scripts, worker, repoDir, module, sink }) {
    this.context = vm.createContext(Object.create(null), {
      name: `worker ${worker}`,
      codeGeneration: { strings: true, wasm: false },
    });
    let rt;
    const install = (part) => {
      const script = scripts.get(part);
      if (!script || part === 'core') return undefined;
      script.runInContext(this.context)(rt);
      return true;
    };
    const bridge = (kind, a, b, c, d) => {
      if (!this.#live) return undefined;
      return kind === 'install' ? install(a) : answer(sink, kind, a, b, c, d);
    };

    const options = JSON.stringify({
      worker,
      repoDir,
      module,
      seed: numberOf(worker),
      pid: 1000 + (numberOf(worker) % 30000),
      hostname: `${worker}-worker`,
      epochMs: EPOCH_MS,
      nodeVersion: process.version,
      env: { NODE_ENV: 'production', TZ: 'UTC' },
    });
    rt = scripts.get('core').runInContext(this.context)(bridge, options);
    install('clock');
    install('errors');
    install('builtins');
    this.entry = rt.entry;
  }

  /** Ends the schedule: from now on nothing the realm's code does reaches this process. */
  close() {
    this.#live = false;
  }
}

/** Answers one bridge call; anything that is not what the runtime sends is ignored. */
function answer(sink, kind, a, b, c, d) {
  switch (kind) {
    case 'now': return sink.now;
    case 'request': return sink.request();
    case 'draw': return sink.draw();
    case 'op': return typeof a === 'string' && typeof b === 'string' && typeof c === 'string' ? sink.op(a, b, c, typeof d === 'string' ? d : '') : undefined;
    case 'timer': return typeof a === 'number' ? sink.timer(a, b === true) : undefined;
    case 'rearm': if (typeof a === 'string' && typeof b === 'number') sink.rearm(a, b); return undefined;
    case 'clear': if (typeof a === 'string') sink.clear(a); return undefined;
    case 'write': if (typeof b === 'string') sink.write(a === 'stderr' ? 'stderr' : 'stdout', b); return undefined;
    case 'settled': if (typeof a === 'string' && typeof c === 'string') sink.settled(a, b === true, c); return undefined;
    case 'spawned': sink.spawned(a === true, typeof b === 'string' ? b : ''); return undefined;
    case 'uncaught': if (typeof a === 'string') sink.uncaught(a); return undefined;
    case 'exit': sink.exit(typeof a === 'number' ? a : 0); return undefined;
    case 'hash': return typeof a === 'string' && typeof b === 'string' && typeof c === 'string' ? digest(a, b, c) : undefined;
    case 'url': return typeof a === 'string' && typeof b === 'string' ? parseUrl(a, b, c, typeof d === 'string' ? d : '') : undefined;
    default: return undefined;
  }
}
