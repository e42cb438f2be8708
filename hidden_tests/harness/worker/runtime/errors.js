// How errors look inside a worker's realm: stacks formatted as Node.js formats
// them but with only the frames of the learner's repository (never one of the
// harness), one-line descriptions of thrown values however hostile, the report
// of an exception nobody caught, and where in the repository a call was made.
// Installed right after the core, before any of the learner's code runs.
(function errorsModule(rt) {
  'use strict';

  const { defineProperty } = Object;
  const repoPrefix = `file://${rt.options.repoDir}/`;
  const repoPath = `${rt.options.repoDir}/`;

  /** "src/x.js:3:7" for a frame in the learner's repository, or "" for any other frame. */
  function frameLocation(site) {
    const name = site.getFileName?.() ?? site.getScriptNameOrSourceURL?.();
    if (typeof name !== 'string') return '';
    let relative;
    if (name.startsWith(repoPrefix)) relative = name.slice(repoPrefix.length);
    else if (name.startsWith(repoPath)) relative = name.slice(repoPath.length);
    else return '';
    return `${relative}:${site.getLineNumber()}:${site.getColumnNumber()}`;
  }

  function describeFrame(site) {
    const where = frameLocation(site);
    if (!where) return '';
    let name = site.getFunctionName?.() || '';
    const type = site.getTypeName?.();
    const method = site.getMethodName?.();
    if (type && method && !site.isToplevel?.() && !name.includes('.')) name = `${type}.${name || method}`;
    if (site.isConstructor?.()) name = `new ${name || '<anonymous>'}`;
    if (site.isAsync?.()) name = `async ${name || '<anonymous>'}`;
    return name ? `    at ${name} (${where})` : `    at ${where}`;
  }

  /** The object callSite is capturing a stack for: its stack needs only its first frame in the repository. */
  let siteHolder = null;

  /** Formats a stack like Node.js does, keeping only frames inside the repository. */
  function prepareStackTrace(error, sites) {
    const firstOnly = siteHolder !== null && error === siteHolder;
    let head;
    try {
      head = rt.errorHead(error);
    } catch {
      head = 'Error';
    }
    const lines = [head];
    for (let i = 0; i < sites.length; i++) {
      const line = describeFrame(sites[i]);
      if (!line) continue;
      lines.push(line);
      if (firstOnly) break;
    }
    return lines.join('\n');
  }
  defineProperty(Error, 'prepareStackTrace', { value: prepareStackTrace, writable: false, configurable: false, enumerable: false });

  /** "Name: message" of an error, as the first line of its stack. */
  rt.errorHead = function errorHead(error) {
    if (error === null || (typeof error !== 'object' && typeof error !== 'function')) return String(error);
    const name = error.name === undefined ? 'Error' : String(error.name);
    const message = error.message === undefined ? '' : String(error.message);
    if (!message) return name;
    if (!name) return message;
    return `${name}: ${message}`;
  };

  /** Describes a thrown value in one line, without running into trouble on hostile values. */
  rt.describe = function describe(value) {
    try {
      if (value instanceof Error || (value && typeof value === 'object' && 'message' in value && 'name' in value)) return rt.errorHead(value);
      if (typeof value === 'string') return `thrown value: ${value}`;
      rt.need('inspect');
      return `thrown value: ${rt.inspect(value)}`;
    } catch {
      return 'thrown value that cannot be described';
    }
  };

  /** Reports an exception nobody caught, unless the learner's process handlers take it. */
  rt.uncaught = function uncaught(error, kind) {
    try {
      if (rt.process && rt.process.listenerCount(kind) > 0) {
        rt.process.emit(kind, error);
        return;
      }
    } catch (handlerError) {
      error = handlerError;
    }
    rt.host('uncaught', rt.describe(error));
  };

  /** "src/x.js:12:5": where in the repository the current call was made, or "". */
  rt.callSite = function callSite(below) {
    const holder = {};
    siteHolder = holder;
    try {
      Error.captureStackTrace(holder, below);
      const frame = String(holder.stack).split('\n')[1] ?? '';
      const match = /\(([^()]+)\)$/.exec(frame) ?? /^\s*at (\S+)$/.exec(frame);
      return match ? match[1] : '';
    } catch {
      return '';
    } finally {
      siteHolder = null;
    }
  };
})
