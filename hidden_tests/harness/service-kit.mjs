// Ready-made stateful services for suites (see services.mjs): the remote
// dependencies that well-known concurrency failures need. A suite gets them by
// exporting a function: `export default ({ services }) => ({ …, services: {
// storage: services.fencedStorage() } })`.

import { Rejection } from './services.mjs';

/**
 * A kit service with the `latencyMs` its constructor was given: how long each of
 * its calls takes, [min, max] ms (checked like any service's). Without it, the
 * service's calls take what the suite's limits.maxLatencyMs allows.
 */
function withLatency(service, latencyMs) {
  return latencyMs === undefined ? service : { ...service, latencyMs };
}

/** A source of monotonically increasing fencing tokens: next() → 1, 2, 3, … */
function tokens({ start = 0, latencyMs } = {}) {
  return withLatency({
    state: () => ({ last: start }),
    writes: ['next'],
    methods: {
      next(state) {
        state.last += 1;
        return state.last;
      },
    },
    describe: (method, args, value) => `token ${value}`,
  }, latencyMs);
}

/**
 * A lock service that grants leases with fencing tokens, as ZooKeeper or a
 * lease table with a version column does: acquire(key, owner, ttlMs) → a token
 * (higher than every token granted before) or null while another owner's lease
 * is live; release(key, owner) → whether it was the owner's. State: leases (key
 * → { owner, until, ttlMs, token }) and every grant ({ key, owner, token, at,
 * worker, request }: request as the trace labels the delivery), in order.
 */
function leases({ latencyMs } = {}) {
  return withLatency({
    state: () => ({ leases: {}, grants: [], last: 0 }),
    // Taking a lease is a write, as the store's setIfAbsent is; a refused take
    // (null) is not, and neither is a release, as a store delete is not.
    writes: (method, args, token) => method === 'acquire' && token !== null,
    methods: {
      acquire(state, [key, owner, ttlMs], call) {
        const lease = state.leases[key];
        if (lease && lease.until > call.at && lease.owner !== owner) return null;
        state.last += 1;
        state.leases[key] = { owner, until: call.at + ttlMs, ttlMs, token: state.last };
        state.grants.push({ key, owner, token: state.last, at: call.at, worker: call.worker, request: call.request });
        return state.last;
      },
      release(state, [key, owner], call) {
        const lease = state.leases[key];
        if (!lease || lease.owner !== owner || lease.until <= call.at) return false;
        delete state.leases[key];
        return true;
      },
    },
    describe: (method, [key], value) => (method === 'acquire' ? (value === null ? 'null: held by another owner' : `granted ${key}, token ${value}`) : String(value)),
    /** When the leases a worker holds run out, and how long each was taken for: pauses `until: 'leases'` wait for them. */
    leasesOf: (state, worker, now) => Object.entries(state.leases).filter(([, l]) => l.owner === worker && l.until > now)
      .map(([key, l]) => ({ key, until: l.until, ttlMs: l.ttlMs })),
    leaseMethods: ['acquire'],
  }, latencyMs);
}

/**
 * Storage that checks fencing tokens, as in Kleppmann's example: write(key,
 * value, token) is refused when a higher token already wrote the key.
 * State: data (key → value), highest (key → token), accepted writes ({ key,
 * value, token, worker, request, job, at }).
 */
function fencedStorage({ latencyMs } = {}) {
  return withLatency({
    label: 'write',
    state: () => ({ data: {}, highest: {}, accepted: [] }),
    writes: ['write'],
    // A read may answer what a key held when it took effect, earlier in its flight.
    reads: ['read'],
    view: (state) => ({ data: state.data }),
    methods: {
      write(state, [key, value, token], call) {
        if (!Number.isInteger(token)) return call.reject(`write(${JSON.stringify(key)}) needs a fencing token`);
        const highest = state.highest[key];
        if (highest !== undefined && token < highest) {
          return call.reject(`stale token ${token}: ${key} already accepted token ${highest}`);
        }
        state.highest[key] = token;
        state.data[key] = value;
        state.accepted.push({ key, value, token, worker: call.worker, request: call.request, job: call.job, at: call.at });
        call.record(String(key));
        return { ok: true };
      },
      read(state, [key]) {
        return state.data[key] ?? null;
      },
    },
  }, latencyMs);
}

/**
 * A provider that refuses calls over its rate (a token bucket on virtual time):
 * `perSecond` calls a second, bursts of `burst`. Refused calls reject with a 429.
 * `reply` answers the calls within the rate, and may refuse one (call.reject);
 * each call it accepts counts as a side effect of the call's job, named `label`
 * in messages (e.g. 'e-mail'; default: "mail.send() call").
 * @param {{ methods?: string[], perSecond: number, burst?: number, reply?: (args: unknown[], call: object) => unknown,
 *   label?: string, latencyMs?: [number, number] }} options
 */
function rateLimited({ methods = ['send'], perSecond, burst = perSecond, reply, label, latencyMs }) {
  const handle = (state, args, call) => {
    state.tokens = Math.min(burst, state.tokens + ((call.at - state.at) * perSecond) / 1000);
    state.at = call.at;
    if (state.tokens < 1) {
      state.refused += 1;
      return call.reject(`429 Too Many Requests: at most ${perSecond} calls a second`);
    }
    state.tokens -= 1;
    const answer = reply ? reply(args, call) : { ok: true };
    // A call the reply refuses (call.reject) still spends its token, as a rate
    // limiter counts requests, but it had no effect: only accepted calls count.
    if (!(answer instanceof Rejection)) call.record(call.job);
    return answer;
  };
  return withLatency({
    ...(label === undefined ? {} : { label }),
    state: () => ({ tokens: burst, at: 0, refused: 0 }),
    writes: methods,
    methods: Object.fromEntries(methods.map((name) => [name, handle])),
  }, latencyMs);
}

/** The rows of `table` (a Map of id → row) matching every field of `where`. */
function matching(table, where = {}) {
  return [...table.values()].filter((row) => Object.entries(where).every(([field, value]) => row[field] === value));
}

const copyTables = (tables) => Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, new Map(rows)]));

/**
 * A database with transactions, unique constraints and a choice of isolation,
 * for write skew and double booking. begin([isolation]) starts a transaction
 * ('snapshot', as PostgreSQL's repeatable read, or 'serializable'); select,
 * insert, update and delete work on its snapshot; commit applies it or refuses
 * it when another transaction committed a change to a row it wrote or selected
 * `forUpdate` (first committer wins), when a row it read changed ('serializable'
 * only), or when a unique constraint would break. A row selected `forUpdate` and
 * not written is locked, not changed: as in PostgreSQL, it conflicts with
 * nobody else's commit.
 * @param {{ tables: Record<string, { rows?: object[], unique?: string[][] }>, latencyMs?: [number, number] }} options
 */
function transactional({ tables, latencyMs }) {
  const state = () => ({
    committed: Object.fromEntries(Object.entries(tables).map(([name, t]) => [name, new Map((t.rows ?? []).map((r) => [r.id, { ...r }]))])),
    versions: {},
    transactions: new Map(),
    next: 0,
  });
  const tx = (s, id, call) => {
    const t = s.transactions.get(id);
    if (!t || !t.open) throw call.reject(`transaction ${id} is not open`);
    return t;
  };
  const view = (t, table) => t.tables[table] ?? new Map();
  const write = (t, table, id, row) => {
    t.tables[table] ??= new Map();
    if (row === null) t.tables[table].delete(id);
    else t.tables[table].set(id, row);
    t.writes.set(`${table}/${id}`, { table, id });
  };
  const guard = (fn) => (s, args, call) => {
    try {
      return fn(s, args, call);
    } catch (refusal) {
      if (refusal instanceof Rejection) return refusal;
      throw refusal;
    }
  };
  const unique = (committed, table, row, id) => (tables[table]?.unique ?? []).find((fields) => matching(committed[table], {})
    .some((other) => other.id !== id && fields.every((f) => other[f] === row[f])));
  return withLatency({
    state,
    // Only a commit changes what others see: a transaction's own inserts and
    // updates are not fault points (a crash before commit is a crash before them).
    writes: ['commit'],
    // A transaction's selects, inserts, updates and rollback touch only its own
    // snapshot; a commit also the committed rows, which a begin copies (and a
    // begin numbers transactions, so it depends on every call).
    touches: (method, [id]) => {
      if (method === 'begin') return null;
      return method === 'commit' ? [`tx:${id}`, 'committed'] : [`tx:${id}`];
    },
    methods: {
      begin(s, [isolation = 'snapshot']) {
        s.next += 1;
        const id = `tx${s.next}`;
        s.transactions.set(id, { id, isolation, open: true, tables: copyTables(s.committed), versions: { ...s.versions }, reads: [], writes: new Map(), locks: new Set() });
        return id;
      },
      select: guard((s, [id, table, where, options], call) => {
        const t = tx(s, id, call);
        const rows = matching(view(t, table), where);
        // The read saw the transaction's own writes made so far: a commit asks it again over them.
        const own = new Map([...t.writes.values()].filter((w) => w.table === table).map((w) => [w.id, t.tables[table]?.get(w.id) ?? null]));
        t.reads.push({ table, where, ids: rows.map((r) => r.id).sort(), own });
        if (options?.forUpdate) for (const row of rows) t.locks.add(`${table}/${row.id}`);
        return rows.map((r) => ({ ...r }));
      }),
      insert: guard((s, [id, table, row], call) => {
        const t = tx(s, id, call);
        if (view(t, table).has(row.id)) return call.reject(`duplicate key value violates unique constraint "${table}_pkey"`);
        write(t, table, row.id, { ...row });
        return { ok: true };
      }),
      update: guard((s, [id, table, rowId, fields], call) => {
        const t = tx(s, id, call);
        const row = view(t, table).get(rowId);
        if (!row) return { updated: 0 };
        write(t, table, rowId, { ...row, ...fields });
        return { updated: 1 };
      }),
      delete: guard((s, [id, table, rowId], call) => {
        const t = tx(s, id, call);
        if (!view(t, table).has(rowId)) return { deleted: 0 };
        write(t, table, rowId, null);
        return { deleted: 1 };
      }),
      rollback(s, [id]) {
        const t = s.transactions.get(id);
        if (t) t.open = false;
        return { ok: true };
      },
      commit: guard((s, [id], call) => {
        const t = tx(s, id, call);
        t.open = false;
        for (const key of new Set([...t.writes.keys(), ...t.locks])) {
          if ((s.versions[key] ?? 0) !== (t.versions[key] ?? 0)) {
            return call.reject('could not serialize access due to concurrent update');
          }
        }
        if (t.isolation === 'serializable') {
          for (const read of t.reads) {
            // What the read would give now: the committed rows, with this transaction's writes made before it.
            const seen = new Map(s.committed[read.table] ?? []);
            for (const [rowId, row] of read.own) row ? seen.set(rowId, row) : seen.delete(rowId);
            const now = matching(seen, read.where).map((r) => r.id).sort();
            const changed = now.join() !== read.ids.join() || read.ids.some((rowId) => (s.versions[`${read.table}/${rowId}`] ?? 0) !== (t.versions[`${read.table}/${rowId}`] ?? 0));
            if (changed) return call.reject('could not serialize access due to read/write dependencies among transactions');
          }
        }
        const next = copyTables(s.committed);
        for (const { table, id: rowId } of t.writes.values()) {
          const row = t.tables[table]?.get(rowId);
          next[table] ??= new Map();
          if (row) next[table].set(rowId, row);
          else next[table].delete(rowId);
        }
        for (const { table, id: rowId } of t.writes.values()) {
          const row = next[table]?.get(rowId);
          const broken = row && unique(next, table, row, rowId);
          if (broken) return call.reject(`duplicate key value violates unique constraint "${table}_${broken.join('_')}_key"`);
        }
        s.committed = next;
        for (const [key] of t.writes) s.versions[key] = (s.versions[key] ?? 0) + 1;
        call.record(id);
        return { committed: true };
      }),
    },
  }, latencyMs);
}

/**
 * A message broker with visibility timeouts, like SQS: receive() hands out the
 * first visible message (or null) and hides it for `visibilityTimeoutMs`;
 * ack(receipt) deletes it if the receipt is still the current one; extend(receipt,
 * ms) keeps it hidden longer. A message not acked in time becomes visible again.
 * @param {{ messages: Array<{ id: string, body: unknown }>, visibilityTimeoutMs: number, latencyMs?: [number, number] }} options
 */
function broker({ messages, visibilityTimeoutMs, latencyMs }) {
  const current = (s, receipt) => s.messages.find((m) => m.receipt === receipt);
  return withLatency({
    state: () => ({ messages: messages.map((m) => ({ ...m, visibleAt: 0, receipt: null, received: 0, acked: false })) }),
    // Receiving a message takes it (it is hidden from others), as a lease is taken;
    // an ack or an extension is not, as a store delete or renewal is not.
    writes: (method, args, message) => method === 'receive' && message !== null,
    methods: {
      receive(s, args, call) {
        const message = s.messages.find((m) => !m.acked && m.visibleAt <= call.at);
        if (!message) return null;
        message.received += 1;
        message.receipt = `${message.id}:${message.received}`;
        message.visibleAt = call.at + visibilityTimeoutMs;
        return { id: message.id, body: message.body, receipt: message.receipt, received: message.received };
      },
      ack(s, [receipt], call) {
        const message = current(s, receipt);
        if (!message || message.visibleAt <= call.at) {
          return call.reject(`receipt ${receipt} is stale: the message became visible again after its timeout`);
        }
        message.acked = true;
        call.record(message.id);
        return { ok: true };
      },
      extend(s, [receipt, ms], call) {
        const message = current(s, receipt);
        if (!message || message.visibleAt <= call.at) return call.reject(`receipt ${receipt} is stale`);
        message.visibleAt = call.at + ms;
        return { ok: true };
      },
    },
  }, latencyMs);
}

/** Every ready-made service, as a suite's default-export function receives them. */
export const serviceKit = Object.freeze({ tokens, leases, fencedStorage, rateLimited, transactional, broker });
