// URL, URLSearchParams and node:url, node:path for the worker's realm. URLs
// are parsed by the host's WHATWG parser through the bridge (strings in,
// strings out), so they parse exactly as in Node.js.
(function urlModule(rt) {
  'use strict';

  /** Parses with the host's WHATWG parser; with `part`, sets that component first. */
  function parseUrl(input, base, part, value) {
    const answer = rt.host('url', String(input), base === undefined ? '' : String(base), part ?? '', value ?? '');
    if (typeof answer !== 'string' || answer.startsWith('!')) {
      const error = new TypeError('Invalid URL');
      error.code = 'ERR_INVALID_URL';
      error.input = String(input);
      throw error;
    }
    return JSON.parse(answer);
  }

  class URLSearchParams {
    #pairs = [];
    #onChange;

    constructor(init = '', onChange = undefined) {
      this.#onChange = onChange;
      if (typeof init === 'string') this.#parse(init);
      else if (init instanceof URLSearchParams) this.#pairs = [...init.entries()];
      else if (init && typeof init[Symbol.iterator] === 'function') for (const [k, v] of init) this.#pairs.push([String(k), String(v)]);
      else if (init && typeof init === 'object') for (const k of Object.keys(init)) this.#pairs.push([k, String(init[k])]);
    }

    #parse(text) {
      this.#pairs = [];
      const query = text.startsWith('?') ? text.slice(1) : text;
      const decode = (s) => { try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; } };
      for (const part of query.split('&')) {
        if (!part) continue;
        const at = part.indexOf('=');
        this.#pairs.push(at < 0 ? [decode(part), ''] : [decode(part.slice(0, at)), decode(part.slice(at + 1))]);
      }
    }

    /** Replaces the pairs from a query string without reporting a change. */
    static reset(params, text) { params.#parse(text); }

    #changed() { this.#onChange?.(this.toString()); }
    get size() { return this.#pairs.length; }
    append(name, value) { this.#pairs.push([String(name), String(value)]); this.#changed(); }
    delete(name) { this.#pairs = this.#pairs.filter(([k]) => k !== String(name)); this.#changed(); }
    get(name) { return this.#pairs.find(([k]) => k === String(name))?.[1] ?? null; }
    getAll(name) { return this.#pairs.filter(([k]) => k === String(name)).map(([, v]) => v); }
    has(name) { return this.#pairs.some(([k]) => k === String(name)); }
    set(name, value) {
      const key = String(name);
      const index = this.#pairs.findIndex(([k]) => k === key);
      if (index < 0) this.#pairs.push([key, String(value)]);
      else this.#pairs = [...this.#pairs.slice(0, index), [key, String(value)], ...this.#pairs.slice(index + 1).filter(([k]) => k !== key)];
      this.#changed();
    }
    sort() { this.#pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)); this.#changed(); }
    forEach(fn, thisArg) { for (const [k, v] of this.#pairs) fn.call(thisArg, v, k, this); }
    keys() { return this.#pairs.map(([k]) => k)[Symbol.iterator](); }
    values() { return this.#pairs.map(([, v]) => v)[Symbol.iterator](); }
    entries() { return this.#pairs.map(([k, v]) => [k, v])[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    toString() {
      const encode = (s) => encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
      return this.#pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
    }
  }

  class URL {
    #parts;
    #params;

    constructor(input, base) {
      this.#parts = parseUrl(input, base);
      this.#params = new URLSearchParams(this.#parts.search, (query) => {
        this.#parts = parseUrl(this.#parts.href, undefined, 'search', query);
      });
    }

    /** Sets one component as the WHATWG setters do; an invalid value is ignored. */
    #set(part, value) {
      try {
        this.#parts = parseUrl(this.#parts.href, undefined, part, String(value));
      } catch {
        return;
      }
      URLSearchParams.reset(this.#params, this.#parts.search);
    }

    static canParse(input, base) {
      try { parseUrl(input, base); return true; } catch { return false; }
    }

    get searchParams() { return this.#params; }
    toString() { return this.#parts.href; }
    toJSON() { return this.#parts.href; }
    get href() { return this.#parts.href; }
    set href(value) { this.#parts = parseUrl(value); URLSearchParams.reset(this.#params, this.#parts.search); }
    get origin() { return this.#parts.origin; }
    get protocol() { return this.#parts.protocol; }
    set protocol(value) { this.#set('protocol', value); }
    get username() { return this.#parts.username; }
    set username(value) { this.#set('username', value); }
    get password() { return this.#parts.password; }
    set password(value) { this.#set('password', value); }
    get host() { return this.#parts.host; }
    set host(value) { this.#set('host', value); }
    get hostname() { return this.#parts.hostname; }
    set hostname(value) { this.#set('hostname', value); }
    get port() { return this.#parts.port; }
    set port(value) { this.#set('port', value); }
    get pathname() { return this.#parts.pathname; }
    set pathname(value) { this.#set('pathname', value); }
    get search() { return this.#parts.search; }
    set search(value) { this.#set('search', value); }
    get hash() { return this.#parts.hash; }
    set hash(value) { this.#set('hash', value); }
  }

  // ---- node:path (POSIX)

  function normalizeParts(parts, absolute) {
    const out = [];
    for (const part of parts) {
      if (!part || part === '.') continue;
      if (part === '..') {
        if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
        else if (!absolute) out.push('..');
      } else {
        out.push(part);
      }
    }
    return out;
  }

  const path = {
    sep: '/',
    delimiter: ':',
    normalize(p) {
      const absolute = p.startsWith('/');
      const joined = normalizeParts(p.split('/'), absolute).join('/');
      const trailing = p.endsWith('/') && joined ? '/' : '';
      return (absolute ? '/' : '') + (joined || (absolute ? '' : '.')) + trailing;
    },
    join(...parts) {
      const joined = parts.filter((p) => p !== '').join('/');
      return joined ? path.normalize(joined) : '.';
    },
    resolve(...parts) {
      let resolved = '';
      for (let i = parts.length - 1; i >= 0 && !resolved.startsWith('/'); i--) {
        if (parts[i]) resolved = `${parts[i]}/${resolved}`;
      }
      if (!resolved.startsWith('/')) resolved = `${rt.options.repoDir}/${resolved}`;
      return `/${normalizeParts(resolved.split('/'), true).join('/')}`;
    },
    isAbsolute: (p) => p.startsWith('/'),
    dirname(p) {
      const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
      const index = trimmed.lastIndexOf('/');
      if (index < 0) return '.';
      if (index === 0) return '/';
      return trimmed.slice(0, index);
    },
    basename(p, ext) {
      const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
      const base = trimmed.slice(trimmed.lastIndexOf('/') + 1);
      return ext && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base;
    },
    extname(p) {
      const base = path.basename(p);
      const index = base.lastIndexOf('.');
      return index <= 0 ? '' : base.slice(index);
    },
    relative(from, to) {
      const a = path.resolve(from).split('/').filter(Boolean);
      const b = path.resolve(to).split('/').filter(Boolean);
      let i = 0;
      while (i < a.length && i < b.length && a[i] === b[i]) i++;
      return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
    },
    parse(p) {
      const root = p.startsWith('/') ? '/' : '';
      const base = path.basename(p);
      const ext = path.extname(p);
      const dir = p.includes('/') ? path.dirname(p) : '';
      return { root, dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
    },
    format(o) {
      const dir = o.dir || o.root || '';
      const base = o.base || `${o.name ?? ''}${o.ext ?? ''}`;
      return dir ? (dir === o.root ? `${dir}${base}` : `${dir}/${base}`) : base;
    },
    toNamespacedPath: (p) => p,
  };
  path.posix = path;

  function fileURLToPath(url) {
    const parsed = typeof url === 'string' ? new URL(url) : url;
    if (parsed.protocol !== 'file:') throw new TypeError('The URL must be of scheme file');
    return decodeURIComponent(parsed.pathname);
  }

  function pathToFileURL(p) {
    const absolute = path.resolve(p);
    return new URL(`file://${absolute.split('/').map((s) => encodeURIComponent(s)).join('/')}`);
  }

  rt.setGlobal('URL', URL);
  rt.setGlobal('URLSearchParams', URLSearchParams);
  rt.define('url', () => ({ URL, URLSearchParams, fileURLToPath, pathToFileURL, domainToASCII: (d) => d, domainToUnicode: (d) => d }));
  rt.define('path', () => path);
  rt.define('path/posix', () => path);
})
