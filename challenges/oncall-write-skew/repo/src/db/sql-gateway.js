/**
 * The rota database: PostgreSQL 15, reached through the platform's SQL gateway
 * (an HTTP service that holds the connections; DB-311). Every method is one
 * round trip to the gateway, which runs one statement on the transaction's
 * connection.
 *
 * Transactions (the same rules as src/db/memory-database.js):
 *   - `begin()` starts a REPEATABLE READ transaction, the gateway's default:
 *     every select reads a snapshot of the data as it was when the
 *     transaction began. `begin('serializable')` starts a SERIALIZABLE one.
 *   - A commit is refused when another transaction committed a change to a
 *     row this one changed, or selected `forUpdate`, after this one began
 *     (first committer wins). A serializable commit is also refused when one
 *     of its selects would now give other rows, or rows changed since.
 *   - A refused commit rejects with "could not serialize access …"
 *     (SQLSTATE 40001), ends the transaction and changes nothing; the work
 *     may be run again in a new transaction.
 *   - The gateway keeps a connection for every open transaction until it is
 *     committed or rolled back.
 *
 * @typedef {object} Database
 * @property {(isolation?: 'repeatable read' | 'serializable') => Promise<string>} begin
 *   starts a transaction and returns its id
 * @property {(tx: string, table: string, where: object, options?: { forUpdate?: boolean }) => Promise<object[]>} select
 *   the rows whose fields equal every field of `where` (SELECT … FOR UPDATE with `forUpdate`)
 * @property {(tx: string, table: string, row: object) => Promise<{ ok: true }>} insert
 * @property {(tx: string, table: string, id: string, fields: object) => Promise<{ updated: number }>} update
 * @property {(tx: string, table: string, id: string) => Promise<{ deleted: number }>} delete
 * @property {(tx: string) => Promise<{ committed: true }>} commit
 * @property {(tx: string) => Promise<{ ok: true }>} rollback
 */

/**
 * @param {object} options
 * @param {string} options.url the gateway, e.g. http://sql-gateway.platform:8080
 * @param {string} options.database e.g. "rota"
 * @param {number} options.timeoutMs how long one statement may take
 * @returns {Database}
 */
export function createSqlGateway({ url, database, timeoutMs }) {
  async function call(path, body) {
    const response = await fetch(new URL(path, url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ database, ...body }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const reply = await response.json();
    if (!response.ok) {
      const error = new Error(reply.message ?? `SQL gateway answered HTTP ${response.status}`);
      error.code = reply.sqlstate;
      throw error;
    }
    return reply;
  }
  const statement = async (tx, sql, params) => (await call(`/v1/tx/${tx}/query`, { sql, params })).rows;
  const assignments = (fields, from) => Object.keys(fields).map((field, i) => `${field} = $${i + from}`).join(', ');
  const conditions = (where) => Object.keys(where).map((field, i) => `${field} = $${i + 1}`).join(' AND ') || 'TRUE';

  return {
    async begin(isolation = 'repeatable read') {
      return (await call('/v1/tx', { isolation })).tx;
    },
    select(tx, table, where, { forUpdate = false } = {}) {
      return statement(tx, `SELECT * FROM ${table} WHERE ${conditions(where)}${forUpdate ? ' FOR UPDATE' : ''}`, Object.values(where));
    },
    async insert(tx, table, row) {
      const fields = Object.keys(row);
      await statement(tx, `INSERT INTO ${table} (${fields.join(', ')}) VALUES (${fields.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
      return { ok: true };
    },
    async update(tx, table, id, fields) {
      const rows = await statement(tx, `UPDATE ${table} SET ${assignments(fields, 2)} WHERE id = $1 RETURNING id`, [id, ...Object.values(fields)]);
      return { updated: rows.length };
    },
    async delete(tx, table, id) {
      const rows = await statement(tx, `DELETE FROM ${table} WHERE id = $1 RETURNING id`, [id]);
      return { deleted: rows.length };
    },
    async commit(tx) {
      await call(`/v1/tx/${tx}/commit`, {});
      return { committed: true };
    },
    async rollback(tx) {
      await call(`/v1/tx/${tx}/rollback`, {});
      return { ok: true };
    },
  };
}
