// util.inspect and util.format for the worker's realm: how console.log shows
// values. Close to Node.js's output for the values services log (plain objects,
// arrays, maps, sets, errors, dates, buffers), without Node's internals.
(function inspectModule(rt) {
  'use strict';

  const custom = Symbol.for('nodejs.util.inspect.custom');
  const BREAK_AT = 72;
  const MAX_ITEMS = 100;
  const defaults = { depth: 2, showHidden: false, breakLength: 80, compact: 3, sorted: false, getters: false, maxArrayLength: MAX_ITEMS, maxStringLength: 10000 };

  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

  function quote(text) {
    const escaped = text.replace(/[\\\n\r\t\b\f\v\0]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' }[c]));
    if (!escaped.includes("'")) return `'${escaped}'`;
    if (!escaped.includes('"')) return `"${escaped}"`;
    if (!escaped.includes('`') && !escaped.includes('${')) return `\`${escaped}\``;
    return `'${escaped.replace(/'/g, "\\'")}'`;
  }

  function keyText(key) {
    if (typeof key === 'symbol') return `[${String(key)}]`;
    return IDENTIFIER.test(key) ? key : quote(key);
  }

  function constructorName(value) {
    let proto = Object.getPrototypeOf(value);
    while (proto !== null) {
      const descriptor = Object.getOwnPropertyDescriptor(proto, 'constructor');
      if (descriptor && typeof descriptor.value === 'function' && descriptor.value.name) return descriptor.value.name;
      proto = Object.getPrototypeOf(proto);
    }
    return null;
  }

  function functionText(fn) {
    let source = '';
    try { source = Function.prototype.toString.call(fn); } catch { /* a proxy or revoked function */ }
    const name = fn.name ? `: ${fn.name}` : ' (anonymous)';
    if (source.startsWith('class')) return `[class ${fn.name || '(anonymous)'}]`;
    const kind = Object.prototype.toString.call(fn).slice(8, -1);
    const label = kind === 'AsyncFunction' || kind === 'GeneratorFunction' || kind === 'AsyncGeneratorFunction' ? kind : 'Function';
    return `[${label}${name}]`;
  }

  function primitive(value, ctx, top) {
    switch (typeof value) {
      case 'string': {
        const cut = value.length > ctx.maxStringLength ? `${value.slice(0, ctx.maxStringLength)}'... ${value.length - ctx.maxStringLength} more characters` : value;
        return top ? cut : quote(cut);
      }
      case 'number': return Object.is(value, -0) ? '-0' : String(value);
      case 'bigint': return `${value}n`;
      case 'symbol': return String(value);
      case 'undefined': return 'undefined';
      case 'boolean': return String(value);
      default: return value === null ? 'null' : undefined;
    }
  }

  function join(prefix, items, open, close, ctx, level) {
    if (items.length === 0) return `${prefix}${open}${close}`;
    const oneLine = `${prefix}${open} ${items.join(', ')} ${close}`;
    if (oneLine.length <= BREAK_AT && !items.some((item) => item.includes('\n'))) return oneLine;
    const indent = '  '.repeat(level + 1);
    return `${prefix}${open}\n${items.map((item) => `${indent}${item.replace(/\n/g, `\n${indent}`)}`).join(',\n')}\n${'  '.repeat(level)}${close}`;
  }

  function ownEntries(value, ctx, level, skipIndexes) {
    const items = [];
    const keys = Reflect.ownKeys(value).filter((key) => {
      if (skipIndexes && typeof key === 'string' && /^(0|[1-9]\d*)$/.test(key)) return false;
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      return descriptor && (descriptor.enumerable || ctx.showHidden);
    });
    if (ctx.sorted) keys.sort();
    for (const key of keys) {
      const descriptor = Object.getOwnPropertyDescriptor(value, key);
      let shown;
      if (descriptor.get || descriptor.set) shown = descriptor.get && descriptor.set ? '[Getter/Setter]' : descriptor.get ? '[Getter]' : '[Setter]';
      else shown = format(descriptor.value, ctx, level + 1);
      items.push(`${keyText(key)}: ${shown}`);
    }
    return items;
  }

  function errorText(error, ctx, level) {
    let stack;
    try { stack = typeof error.stack === 'string' ? error.stack : rt.errorHead(error); } catch { stack = rt.errorHead(error); }
    const extra = ownEntries(error, ctx, level).filter((item) => !/^(stack|message): /.test(item));
    return extra.length > 0 ? `${stack} ${join('', extra, '{', '}', ctx, level)}` : stack;
  }

  function bytesText(name, bytes) {
    const shown = [];
    for (let i = 0; i < Math.min(bytes.length, 50); i++) shown.push(bytes[i].toString(16).padStart(2, '0'));
    const more = bytes.length > 50 ? ` ... ${bytes.length - 50} more bytes` : '';
    return `<${name} ${shown.join(' ')}${more}>`;
  }

  function format(value, ctx, level, top = false) {
    const simple = primitive(value, ctx, top);
    if (simple !== undefined) return simple;
    if (ctx.seen.includes(value)) return '[Circular *1]';
    if (typeof value[custom] === 'function' && value[custom] !== inspect) {
      const shown = value[custom](ctx.depth - level, { ...ctx, seen: undefined }, inspect);
      return typeof shown === 'string' ? shown : format(shown, ctx, level);
    }
    if (typeof value === 'function') {
      const props = ownEntries(value, ctx, level).filter((item) => !/^(length|name|prototype): /.test(item));
      return props.length > 0 ? join(`${functionText(value)} `, props, '{', '}', ctx, level) : functionText(value);
    }
    const tag = Object.prototype.toString.call(value).slice(8, -1);
    if (value instanceof Error || tag === 'Error') return errorText(value, ctx, level);
    if (tag === 'Date') return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    if (tag === 'RegExp') return String(value);
    if (rt.isBuffer?.(value)) return bytesText('Buffer', value);
    if (level > ctx.depth) {
      if (Array.isArray(value)) return '[Array]';
      const name = constructorName(value);
      return name && name !== 'Object' ? `[${name}]` : '[Object]';
    }
    ctx.seen.push(value);
    try {
      const name = constructorName(value);
      if (Array.isArray(value)) {
        const items = [];
        const limit = Math.min(value.length, ctx.maxArrayLength);
        let holes = 0;
        for (let i = 0; i < limit; i++) {
          if (!(i in value)) { holes += 1; continue; }
          if (holes > 0) { items.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`); holes = 0; }
          items.push(format(value[i], ctx, level + 1));
        }
        if (holes > 0) items.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
        if (value.length > limit) items.push(`... ${value.length - limit} more item${value.length - limit > 1 ? 's' : ''}`);
        items.push(...ownEntries(value, ctx, level, true).filter((item) => !item.startsWith('length:')));
        const prefix = name && name !== 'Array' ? `${name}(${value.length}) ` : '';
        return join(prefix, items, '[', ']', ctx, level);
      }
      if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
        const items = Array.from(value.slice(0, ctx.maxArrayLength), (n) => format(n, ctx, level + 1));
        if (value.length > ctx.maxArrayLength) items.push(`... ${value.length - ctx.maxArrayLength} more items`);
        return join(`${name}(${value.length}) `, items, '[', ']', ctx, level);
      }
      if (tag === 'Map') {
        const items = [...value].slice(0, ctx.maxArrayLength).map(([k, v]) => `${format(k, ctx, level + 1)} => ${format(v, ctx, level + 1)}`);
        return join(`${name ?? 'Map'}(${value.size}) `, [...items, ...ownEntries(value, ctx, level)], '{', '}', ctx, level);
      }
      if (tag === 'Set') {
        const items = [...value].slice(0, ctx.maxArrayLength).map((v) => format(v, ctx, level + 1));
        return join(`${name ?? 'Set'}(${value.size}) `, [...items, ...ownEntries(value, ctx, level)], '{', '}', ctx, level);
      }
      if (tag === 'Promise') return `Promise { <${'unknown state'}> }`;
      if (tag === 'WeakMap' || tag === 'WeakSet') return `${tag} { <items unknown> }`;
      if (tag === 'ArrayBuffer') return `ArrayBuffer { byteLength: ${value.byteLength} }`;
      if (['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(tag) && typeof value.valueOf() !== 'object') {
        return `[${tag}: ${format(value.valueOf(), ctx, level + 1)}]`;
      }
      const items = ownEntries(value, ctx, level);
      let prefix = '';
      if (Object.getPrototypeOf(value) === null) prefix = '[Object: null prototype] ';
      else if (name && name !== 'Object') prefix = `${name} `;
      else if (!name) prefix = `${tag === 'Object' ? '' : tag} `.trimStart();
      return join(prefix, items, '{', '}', ctx, level);
    } finally {
      ctx.seen.pop();
    }
  }

  /** util.inspect: a readable rendering of any value. */
  function inspect(value, options) {
    const ctx = { ...defaults, ...(typeof options === 'object' && options !== null ? options : {}), seen: [] };
    if (ctx.depth === null || ctx.depth === Infinity) ctx.depth = Infinity;
    return format(value, ctx, 0);
  }
  inspect.custom = custom;
  inspect.defaultOptions = { ...defaults };

  /** util.format: printf-like substitutions, then every other argument inspected. */
  function formatArgs(args) {
    if (args.length === 0) return '';
    const first = args[0];
    let rest = 1;
    let out = '';
    if (typeof first === 'string') {
      out = first.replace(/%([sdifjoOc%])/g, (match, code) => {
        if (code === '%') return '%';
        if (rest >= args.length) return match;
        const arg = args[rest++];
        switch (code) {
          case 's': return typeof arg === 'string' ? arg : typeof arg === 'bigint' ? `${arg}n` : typeof arg === 'object' && arg !== null ? inspect(arg, { depth: 0 }) : String(arg);
          case 'd': case 'i': {
            if (typeof arg === 'bigint') return `${arg}n`;
            if (typeof arg === 'symbol') return 'NaN';
            const n = Number(arg);
            return code === 'i' ? String(Math.trunc(n)) : String(n);
          }
          case 'f': return typeof arg === 'symbol' ? 'NaN' : String(Number.parseFloat(arg));
          case 'j': try { return JSON.stringify(arg); } catch { return '[Circular]'; }
          case 'o': return inspect(arg, { showHidden: true, depth: 4 });
          case 'O': return inspect(arg);
          case 'c': return '';
          default: return match;
        }
      });
    } else {
      out = format(first, { ...defaults, seen: [] }, 0, true);
    }
    for (; rest < args.length; rest++) {
      const arg = args[rest];
      out += ` ${typeof arg === 'string' ? arg : inspect(arg)}`;
    }
    return out;
  }

  rt.inspect = inspect;
  rt.format = (...args) => formatArgs(args);
})
