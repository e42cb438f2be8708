// The fake remote key-value store the workers share: the real semantics of Redis
// GET, SET PX, SET NX PX, INCRBY and the usual compare-and-* scripts, with expiry on
// the virtual clock. It remembers who wrote each value, so lock ownership can be
// judged.

/** Store operations that change nothing. */
export const READ_OPERATIONS = new Set(['get']);

/** A key-value store with leases on virtual time. */
export class FakeStore {
  #entries = new Map();
  /** Every change of each key, in order: when it happened and the entry it replaced (expired or not). */
  #changes = new Map();
  /** What each key held right after every store call on it, in order (see history). */
  #history = new Map();
  #claimKeys;
  #version = 0;

  /**
   * @param {RegExp} claimKeys keys holding locks or leases, e.g. /^lock:/
   * @param {Record<string, string>} [initial] contents at time 0, written by nobody
   */
  constructor(claimKeys, initial = {}) {
    this.#claimKeys = claimKeys;
    for (const [key, value] of Object.entries(initial)) {
      this.#entries.set(key, { value: String(value), expiresAt: null, ttlMs: null, writer: '', claim: claimKeys.test(key) });
    }
  }

  /**
   * How many calls have changed the store so far: a call after which it is the
   * same changed nothing (events.mjs, takenFootprint).
   */
  get version() {
    return this.#version;
  }

  /**
   * Returns the live entry for a key at time `now` (an expired one stays until overwritten, for valuesSince).
   * A claim is a value under a lock key (the suite's claimKeys): a lock or lease;
   * ttlMs is how long it was written or last renewed for.
   * @returns {{ value: string, expiresAt: number|null, ttlMs: number|null, writer: string, claim: boolean } | undefined}
   */
  entry(key, now) {
    const entry = this.#entries.get(key);
    return entry && (entry.expiresAt === null || entry.expiresAt > now) ? entry : undefined;
  }

  /**
   * What `key` held right after each store call on it so far, reads included, in
   * order: the call's trace step and the live entry's value, writer and expiry
   * (null when the key was absent or had run out). Properties read it to ask
   * who held a key at a given step.
   * @returns {{ step: object, value: string | null, writer: string | null, expiresAt: number | null }[]}
   */
  history(key) {
    return this.#history.get(key) ?? [];
  }

  /** Notes what `key` holds at `now`, right after the store call recorded as trace step `step`. */
  noteCall(key, step, now) {
    if (typeof key !== 'string') return;
    const entry = this.entry(key, now);
    if (!this.#history.has(key)) this.#history.set(key, []);
    this.#history.get(key).push({ step, value: entry?.value ?? null, writer: entry?.writer ?? null, expiresAt: entry?.expiresAt ?? null });
  }

  /** The keys whose history holds at least one store call, in the order they were first called. */
  calledKeys() {
    return [...this.#history.keys()];
  }

  /** The keys (claims or not) that run out after `from` and no later than `to`, as [key, entry] pairs. */
  expiring(from, to) {
    return [...this.#entries.entries()].filter(([, e]) => e.expiresAt !== null && e.expiresAt > from && e.expiresAt <= to);
  }

  /** Every live entry at `now`, as [key, entry] pairs. */
  live(now) {
    return [...this.#entries.keys()].map((key) => [key, this.entry(key, now)]).filter(([, entry]) => entry);
  }

  /**
   * The values a get of `key` sent at `sentAt` could have answered at some moment
   * from `from` (at least `sentAt`) to `now`, other than what it answers now, each
   * with a moment it held (null where the key was absent or had run out), oldest
   * first. Changes made at the very moment it was sent do not count, whether the
   * explorer ordered them before or after the send: a worker's own write answered
   * then is one it must see, and the others may as well arrive after the read.
   * @returns {{ value: string | null, at: number }[]}
   */
  valuesSince(key, sentAt, from, now) {
    const changes = (this.#changes.get(key) ?? []).filter((c) => c.at > sentAt && c.at >= from);
    const current = this.#entries.get(key);
    const spans = [
      ...changes.map((c, i) => ({ entry: c.before, start: i === 0 ? from : changes[i - 1].at, end: c.at })),
      { entry: current, start: changes.at(-1)?.at ?? from, end: now },
    ];
    const seen = new Set([this.entry(key, now)?.value ?? null]);
    const values = [];
    const add = (value, at) => {
      if (seen.has(value)) return;
      seen.add(value);
      values.push({ value, at });
    };
    for (const { entry, start, end } of spans) {
      const expiresAt = entry?.expiresAt ?? null;
      if (entry && (expiresAt === null || expiresAt > start)) add(entry.value, start);
      if (!entry || (expiresAt !== null && expiresAt < end)) add(null, Math.max(start, expiresAt ?? start));
    }
    return values;
  }

  /**
   * Applies one operation and returns its result.
   * @param {string} name operation name
   * @param {unknown[]} args the call's arguments
   * @param {string} writer worker performing it
   * @param {number} now virtual time in ms
   * @returns {unknown}
   */
  apply(name, args, writer, now) {
    const key = args[0];
    const before = this.#entries.get(key);
    const replaced = before && { ...before };
    const result = this.#applyNow(name, args, writer, now);
    const after = this.#entries.get(key);
    if (before !== after || replaced?.expiresAt !== after?.expiresAt) {
      this.#version += 1;
      if (!this.#changes.has(key)) this.#changes.set(key, []);
      this.#changes.get(key).push({ at: now, before: replaced });
    }
    return result;
  }

  #applyNow(name, args, writer, now) {
    const [key] = args;
    if (typeof key !== 'string') throw new TypeError(`${name}(): key must be a string`);
    const current = this.entry(key, now);
    const ttlOf = (opts) => {
      const ttl = opts?.ttlMs;
      if (ttl === undefined || ttl === null) return null;
      if (!(Number.isFinite(ttl) && ttl > 0)) throw new TypeError(`${name}(): ttlMs must be a positive number`);
      return ttl;
    };
    const write = (value, opts) => {
      if (typeof value !== 'string') throw new TypeError(`${name}(): value must be a string`);
      const ttl = ttlOf(opts);
      this.#entries.set(key, { value, expiresAt: ttl ? now + ttl : null, ttlMs: ttl, writer, claim: this.#claimKeys.test(key) });
    };
    switch (name) {
      case 'get':
        return current?.value ?? null;
      case 'set':
        write(args[1], args[2]);
        return null;
      case 'setIfAbsent':
        if (current) return false;
        write(args[1], args[2]);
        return true;
      case 'compareAndSet':
        if ((current?.value ?? null) !== args[1]) return false;
        write(args[2], args[3]);
        return true;
      case 'compareAndDelete':
        if (current?.value !== args[1]) return false;
        this.#entries.delete(key);
        return true;
      case 'compareAndExpire':
        if (current?.value !== args[1]) return false;
        current.ttlMs = ttlOf({ ttlMs: args[2] });
        current.expiresAt = now + current.ttlMs;
        return true;
      case 'expire':
        if (!current) return false;
        current.ttlMs = ttlOf({ ttlMs: args[1] });
        current.expiresAt = now + current.ttlMs;
        return true;
      case 'incrBy': {
        const delta = args[1];
        if (!Number.isInteger(delta)) throw new TypeError('incrBy(): delta must be an integer');
        const before = current ? Number(current.value) : 0;
        if (!Number.isInteger(before)) throw new TypeError(`incrBy(): ${key} does not hold an integer`);
        this.#entries.set(key, { ...(current ?? { expiresAt: null, ttlMs: null, claim: this.#claimKeys.test(key) }), value: String(before + delta), writer });
        return before + delta;
      }
      case 'delete':
        this.#entries.delete(key);
        return null;
      default:
        throw new TypeError(`the store has no operation ${name}()`);
    }
  }
}
