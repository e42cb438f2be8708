/**
 * An in-memory returns database with the semantics documented in
 * returns-db.js, for the tests and `npm start -- --demo`. `beforeCall` is
 * awaited at the start of every call (the tests make each call one round trip
 * on virtual time), and `failNext(method, message)` makes the next call of a
 * method fail without writing anything, as a failover does.
 */

/**
 * @param {{ tables?: Record<string, object[]>, beforeCall?: () => Promise<void> }} [options]
 * @returns {import('./returns-db.js').ReturnsDb & { dump(table: string): object[], failNext(method: string, message: string): void }}
 */
export function createMemoryDb({ tables = {}, beforeCall = async () => {} } = {}) {
  const data = new Map(Object.entries(tables).map(([name, docs]) => [name, new Map(docs.map((d) => [d.id, structuredClone(d)]))]));
  const failures = new Map();
  const table = (name) => {
    if (!data.has(name)) data.set(name, new Map());
    return data.get(name);
  };
  const matches = (doc, fields = {}) => Object.entries(fields).every(([k, v]) => doc?.[k] === v);
  const refuse = (why) => { throw new Error(`ConditionFailed: ${why}`); };

  // Checks one write and returns the change it makes, without making it.
  const plan = (op) => {
    if (op.put) {
      const { table: name, doc, ifAbsent } = op.put;
      if (ifAbsent && table(name).has(doc.id)) refuse(`${name}/${doc.id} already exists`);
      return () => table(name).set(doc.id, structuredClone(doc));
    }
    if (op.update) {
      const { table: name, id, set, expect } = op.update;
      const doc = table(name).get(id);
      if (!doc) refuse(`${name}/${id} does not exist`);
      if (expect && !matches(doc, expect)) refuse(`${name}/${id} does not match ${JSON.stringify(expect)}`);
      return () => table(name).set(id, { ...doc, ...structuredClone(set) });
    }
    if (op.delete) {
      const { table: name, id, expect } = op.delete;
      const doc = table(name).get(id);
      if (expect && !matches(doc, expect)) refuse(`${name}/${id} does not match ${JSON.stringify(expect)}`);
      return () => table(name).delete(id);
    }
    throw new TypeError(`unknown write ${JSON.stringify(Object.keys(op))}`);
  };

  const call = (method, body) => async (...args) => {
    await beforeCall();
    const failure = failures.get(method);
    if (failure) {
      failures.delete(method);
      throw new Error(failure);
    }
    return body(...args);
  };

  return {
    get: call('get', (name, id) => structuredClone(table(name).get(id) ?? null)),
    query: call('query', (name, where) => [...table(name).values()].filter((d) => matches(d, where))
      .sort((a, b) => (a.id < b.id ? -1 : 1)).map((d) => structuredClone(d))),
    put: call('put', (name, doc, { ifAbsent = false } = {}) => { plan({ put: { table: name, doc, ifAbsent } })(); return { ok: true }; }),
    update: call('update', (name, id, set, { expect } = {}) => { plan({ update: { table: name, id, set, expect } })(); return { ok: true }; }),
    delete: call('delete', (name, id, { expect } = {}) => { plan({ delete: { table: name, id, expect } })(); return { ok: true }; }),
    transactWrite: call('transactWrite', (ops) => {
      const changes = ops.map(plan);
      for (const change of changes) change();
      return { ok: true };
    }),
    dump: (name) => [...table(name).values()].map((d) => structuredClone(d)),
    failNext: (method, message) => failures.set(method, message),
  };
}
