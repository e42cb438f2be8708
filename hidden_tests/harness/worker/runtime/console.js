// console for the worker's realm: what the learner's code prints goes to the
// supervisor as the worker's output, formatted as Node.js formats it.
(function consoleModule(rt) {
  'use strict';

  rt.need('inspect');

  const counts = new Map();
  const timers = new Map();
  let indent = '';

  function print(stream, text) {
    const lines = indent ? text.split('\n').map((line) => indent + line).join('\n') : text;
    rt.host('write', stream, `${lines}\n`);
  }

  const console = {
    log: (...args) => print('stdout', rt.format(...args)),
    info: (...args) => print('stdout', rt.format(...args)),
    debug: (...args) => print('stdout', rt.format(...args)),
    warn: (...args) => print('stderr', rt.format(...args)),
    error: (...args) => print('stderr', rt.format(...args)),
    trace: (...args) => {
      const error = new Error(rt.format(...args));
      error.name = 'Trace';
      print('stderr', error.stack);
    },
    dir: (value, options) => print('stdout', rt.inspect(value, options)),
    dirxml: (...args) => print('stdout', rt.format(...args)),
    table: (data) => print('stdout', rt.inspect(data)),
    assert: (condition, ...args) => {
      if (!condition) print('stderr', `Assertion failed${args.length > 0 ? `: ${rt.format(...args)}` : ''}`);
    },
    count: (label = 'default') => {
      const n = (counts.get(label) ?? 0) + 1;
      counts.set(label, n);
      print('stdout', `${label}: ${n}`);
    },
    countReset: (label = 'default') => { counts.delete(label); },
    group: (...args) => {
      if (args.length > 0) print('stdout', rt.format(...args));
      indent += '  ';
    },
    groupCollapsed: (...args) => console.group(...args),
    groupEnd: () => { indent = indent.slice(2); },
    time: (label = 'default') => { timers.set(label, rt.now()); },
    timeEnd: (label = 'default') => {
      if (!timers.has(label)) return;
      print('stdout', `${label}: ${rt.now() - timers.get(label)}ms`);
      timers.delete(label);
    },
    timeLog: (label = 'default', ...args) => {
      if (!timers.has(label)) return;
      print('stdout', `${label}: ${rt.now() - timers.get(label)}ms${args.length > 0 ? ` ${rt.format(...args)}` : ''}`);
    },
  };

  rt.setGlobal('console', console);
  rt.define('console', () => console);
})
