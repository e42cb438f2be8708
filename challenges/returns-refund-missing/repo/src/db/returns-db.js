/**
 * The returns database: a document store (one JSON document per id in each
 * table) reached over the database team's command API. Every method below is
 * one round trip, and the database applies each call as one step: nothing
 * another worker does can land inside a call.
 *
 *   get(table, id)                  the document, or null
 *   query(table, where)             every document whose fields equal `where`'s, by id
 *   put(table, doc, { ifAbsent })   writes `doc` (it has an `id`); with ifAbsent, only if no document has that id
 *   update(table, id, set, { expect })
 *                                   merges `set` into the document; with expect, only if its fields
 *                                   equal `expect`'s; a missing document is never updated
 *   delete(table, id, { expect })   removes the document (a missing one is fine without expect)
 *   transactWrite(ops)              several writes, all or none: each op is { put }, { update } or
 *                                   { delete } with the arguments above as fields, e.g.
 *                                   { update: { table, id, set, expect } }; every condition is checked
 *                                   before anything is written, and one that fails writes nothing
 *
 * A table exists as soon as a document is written to it. A write whose
 * condition does not hold rejects with an error whose message starts with
 * "ConditionFailed" (see isConditionFailed) and writes nothing. Any call can
 * also fail outright (a timeout, a failover): then it has written nothing
 * either, and its error says so.
 *
 * @typedef {object} ReturnsDb
 * @property {(table: string, id: string) => Promise<object | null>} get
 * @property {(table: string, where: object) => Promise<object[]>} query
 * @property {(table: string, doc: object, options?: { ifAbsent?: boolean }) => Promise<{ ok: true }>} put
 * @property {(table: string, id: string, set: object, options?: { expect?: object }) => Promise<{ ok: true }>} update
 * @property {(table: string, id: string, options?: { expect?: object }) => Promise<{ ok: true }>} delete
 * @property {(ops: object[]) => Promise<{ ok: true }>} transactWrite
 */

/** The methods of a ReturnsDb, in the order above. */
export const DB_METHODS = Object.freeze(['get', 'query', 'put', 'update', 'delete', 'transactWrite']);

/** Whether `error` is a write refused because its condition did not hold. */
export function isConditionFailed(error) {
  return /^ConditionFailed/.test(String(error?.message ?? ''));
}

/**
 * The production client: one POST to the command API per call.
 *
 * @param {{ baseUrl: string, token: string, timeoutMs: number, fetch?: typeof globalThis.fetch }} options
 * @returns {ReturnsDb}
 */
export function createReturnsDbClient({ baseUrl, token, timeoutMs, fetch = globalThis.fetch }) {
  const command = async (name, args) => {
    const response = await fetch(`${baseUrl}/v2/commands/${name}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ args }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error ?? `returns-db answered ${response.status}`);
    return body.result;
  };
  return Object.fromEntries(DB_METHODS.map((name) => [name, (...args) => command(name, args)]));
}
