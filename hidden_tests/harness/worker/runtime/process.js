// The worker's process as its code sees it: a process object of its own (pid,
// env, argv, hrtime on the virtual clock, stdout and stderr that go to the
// console the learner reads, exit that ends the worker) and node:os with the
// worker's own host name. Each simulated worker is a process of its own in
// production, so each gets its own pid and host name here too.
(function processModule(rt) {
  'use strict';

  rt.need('events', 'buffer');

  const { options } = rt;

  function write(stream) {
    return function writeChunk(chunk, encoding, callback) {
      const text = typeof chunk === 'string' ? chunk : rt.isBuffer(chunk) || ArrayBuffer.isView(chunk) ? rt.utf8Decode(rt.bytesOf(chunk)) : String(chunk);
      rt.host('write', stream, text);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') rt.queueMicrotask(() => done());
      return true;
    };
  }

  class WritableConsoleStream extends rt.EventEmitter {
    #stream;
    constructor(stream) {
      super();
      this.#stream = stream;
      this.write = write(stream);
    }
    get isTTY() { return false; }
    get fd() { return this.#stream === 'stdout' ? 1 : 2; }
    end(chunk) { if (chunk !== undefined) this.write(chunk); return this; }
  }

  class ProcessExit extends Error {}

  const startedAt = rt.now();
  function hrtime(previous) {
    const ns = BigInt(rt.now()) * 1000000n;
    let seconds = Number(ns / 1000000000n);
    let nanos = Number(ns % 1000000000n);
    if (Array.isArray(previous)) {
      seconds -= previous[0];
      nanos -= previous[1];
      if (nanos < 0) { seconds -= 1; nanos += 1e9; }
    }
    return [seconds, nanos];
  }
  hrtime.bigint = () => BigInt(rt.now()) * 1000000n;

  const env = { ...options.env };
  const processObject = new rt.EventEmitter();
  Object.assign(processObject, {
    pid: options.pid,
    ppid: 1,
    platform: 'linux',
    arch: 'x64',
    version: options.nodeVersion,
    versions: { node: options.nodeVersion.slice(1) },
    release: { name: 'node' },
    title: 'node',
    argv: ['/usr/local/bin/node', `${options.repoDir}/${options.module}`],
    argv0: 'node',
    execArgv: [],
    execPath: '/usr/local/bin/node',
    env,
    exitCode: undefined,
    config: { variables: {} },
    features: {},
    stdout: new WritableConsoleStream('stdout'),
    stderr: new WritableConsoleStream('stderr'),
    stdin: undefined,
    hrtime,
    cwd: () => options.repoDir,
    chdir: () => { throw new Error('process.chdir() is not available to workers in the hidden tests'); },
    uptime: () => (rt.now() - startedAt) / 1000,
    memoryUsage: Object.assign(() => ({ rss: 50e6, heapTotal: 20e6, heapUsed: 10e6, external: 1e6, arrayBuffers: 1e5 }), { rss: () => 50e6 }),
    cpuUsage: () => ({ user: rt.now() * 1000, system: 0 }),
    resourceUsage: () => ({}),
    nextTick: (fn, ...args) => rt.queueMicrotask(() => fn(...args)),
    emitWarning: (warning) => { rt.host('write', 'stderr', `(node:${options.pid}) ${typeof warning === 'string' ? `Warning: ${warning}` : rt.errorHead(warning)}\n`); },
    umask: () => 0o22,
    getuid: () => 1000,
    getgid: () => 1000,
    geteuid: () => 1000,
    getegid: () => 1000,
    kill: () => { throw new Error('process.kill() is not available to workers in the hidden tests'); },
    abort: () => processObject.exit(134),
    exit(code) {
      const status = code === undefined ? processObject.exitCode ?? 0 : Number(code) || 0;
      rt.host('exit', status);
      throw new ProcessExit(`process.exit(${status}) was called`);
    },
  });
  rt.process = processObject;
  rt.setGlobal('process', processObject);
  rt.define('process', () => processObject);

  rt.define('os', () => ({
    EOL: '\n',
    hostname: () => options.hostname,
    platform: () => 'linux',
    type: () => 'Linux',
    arch: () => 'x64',
    release: () => '6.1.0',
    version: () => '#1 SMP',
    machine: () => 'x86_64',
    uptime: () => 86400 + rt.now() / 1000,
    homedir: () => '/home/node',
    tmpdir: () => '/tmp',
    endianness: () => 'LE',
    cpus: () => [{ model: 'virtual', speed: 2000, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
    availableParallelism: () => 1,
    totalmem: () => 256 * 1024 * 1024,
    freemem: () => 128 * 1024 * 1024,
    loadavg: () => [0, 0, 0],
    networkInterfaces: () => ({}),
    userInfo: () => ({ uid: 1000, gid: 1000, username: 'node', homedir: '/home/node', shell: null }),
    constants: { signals: {}, errno: {} },
    devNull: '/dev/null',
  }));
})
