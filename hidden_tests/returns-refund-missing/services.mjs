// The two services the workers share, as the repository README describes them:
// the returns database (conditional writes, all-or-none transactions) and the
// event bus (a publish may be refused, or time out after the bus kept the event).

const matches = (doc, fields = {}) => Object.entries(fields ?? {}).every(([k, v]) => doc?.[k] === v);
const copy = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** A refusal for a write whose condition does not hold (README: "ConditionFailed"). */
class Refused extends Error {}

/** The change one write makes, checked against `tables` without making it; throws Refused. */
function plan(tables, op) {
  const table = (name) => {
    if (typeof name !== 'string' || name === '') throw new TypeError('a table name is a non-empty string');
    tables[name] ??= new Map();
    return tables[name];
  };
  if (op?.put) {
    const { table: name, doc, ifAbsent } = op.put;
    const docs = table(name);
    if (typeof doc?.id !== 'string') throw new TypeError('put needs a document with a string id');
    if (ifAbsent && docs.has(doc.id)) throw new Refused(`${name}/${doc.id} already exists`);
    return [name, doc.id, copy(doc)];
  }
  if (op?.update) {
    const { table: name, id, set, expect } = op.update;
    const doc = table(name).get(id);
    if (!doc) throw new Refused(`${name}/${id} does not exist`);
    if (expect && !matches(doc, expect)) throw new Refused(`${name}/${id} does not match ${JSON.stringify(expect)}`);
    return [name, id, { ...doc, ...copy(set) }];
  }
  if (op?.delete) {
    const { table: name, id, expect } = op.delete;
    const docs = table(name);
    if (expect && !matches(docs.get(id), expect)) throw new Refused(`${name}/${id} does not match ${JSON.stringify(expect)}`);
    return [name, id, null];
  }
  throw new TypeError(`unknown write ${JSON.stringify(op && Object.keys(op))}`);
}

/**
 * Applies writes all or none; records "approved:<id>" for each return the
 * writes approve, so that properties know at which step it was approved.
 */
function apply(s, ops, call) {
  let changes;
  try {
    changes = ops.map((op) => plan(s.tables, op));
  } catch (error) {
    if (error instanceof Refused) return call.reject(`ConditionFailed: ${error.message}`);
    return call.reject(`ValidationError: ${error.message}`);
  }
  for (const [name, id, doc] of changes) {
    const before = s.tables[name].get(id);
    if (doc === null) s.tables[name].delete(id);
    else s.tables[name].set(id, doc);
    if (name === 'returns' && doc?.status === 'approved' && before?.status !== 'approved') call.record(`approved:${id}`);
  }
  return { ok: true };
}

/** The database's write methods: the calls a crash counts and the trace shows as writes. */
export const WRITES = ['put', 'update', 'delete', 'transactWrite'];

/** The returns database of the README with these returns in it. */
export function returnsDb(returns, latencyMs) {
  return {
    state: () => ({ tables: { returns: new Map(returns.map((r) => [r.id, copy(r)])) } }),
    latencyMs,
    label: 'returns-db write',
    writes: WRITES,
    // A get or query may answer the tables as they stood when it took effect, earlier in its flight.
    reads: ['get', 'query'],
    view: (s) => ({ tables: s.tables }),
    methods: {
      get: (s, [table, id]) => copy(s.tables[table]?.get(id) ?? null),
      query: (s, [table, where]) => [...(s.tables[table]?.values() ?? [])].filter((d) => matches(d, where))
        .sort((a, b) => (a.id < b.id ? -1 : 1)).map(copy),
      put: (s, [table, doc, options], call) => apply(s, [{ put: { table, doc, ifAbsent: options?.ifAbsent } }], call),
      update: (s, [table, id, set, options], call) => apply(s, [{ update: { table, id, set, expect: options?.expect } }], call),
      delete: (s, [table, id, options], call) => apply(s, [{ delete: { table, id, expect: options?.expect } }], call),
      transactWrite: (s, [ops], call) => (Array.isArray(ops) ? apply(s, ops, call) : call.reject('ValidationError: transactWrite takes a list of writes')),
    },
    // A transaction is about the items it writes: "returns/R-1 + outbox/R-1".
    key: (method, [ops]) => (method === 'transactWrite' && Array.isArray(ops)
      ? ops.map((op) => { const a = Object.values(op ?? {})[0]; return `${a?.table}/${a?.doc?.id ?? a?.id}`; }).join(' + ')
      : undefined),
    describe(method, args) {
      const what = (op) => {
        const [kind, a] = Object.entries(op ?? {})[0] ?? ['?', {}];
        return `${kind} ${a?.table}/${a?.doc?.id ?? a?.id}${a?.set ? ` ${JSON.stringify(a.set)}` : ''}`;
      };
      if (method === 'transactWrite') return `wrote ${(args[0] ?? []).map(what).join(' + ')}`;
      if (WRITES.includes(method)) return `wrote ${what({ [method]: { table: args[0], doc: args[1], id: args[1], set: args[2] } })}`;
      return undefined;
    },
  };
}

/**
 * The event bus of the README. `timesOut(worker, n)` says whether the n-th
 * publish (from 0) of a worker times out after the bus kept the event: the
 * worker gets an error, refunds gets the event. Each publish the bus keeps is
 * recorded as "published:<index>".
 */
export function eventBus(latencyMs, timesOut = () => false) {
  return {
    state: () => ({ events: [], publishes: {} }),
    latencyMs,
    label: 'event publish',
    writes: ['publish'],
    methods: {
      publish(s, [topic, event], call) {
        const n = s.publishes[call.worker] ?? 0;
        s.publishes[call.worker] = n + 1;
        if (typeof event?.id !== 'string' || event.id === '') return call.reject('ValidationError: an event needs a string id');
        s.events.push({ topic, event: copy(event), worker: call.worker });
        call.record(`published:${s.events.length - 1}`);
        if (timesOut(call.worker, n)) return call.reject('publish timed out after 2000 ms: the broker did not confirm');
        return { offset: s.events.length - 1 };
      },
    },
    describe: (method, [topic, event]) => `${topic} ${event?.type} ${event?.id}`,
  };
}
