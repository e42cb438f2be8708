/**
 * The rota database in memory, with the same interface and the same
 * transaction rules as the production one (src/db/sql-gateway.js documents
 * both): for tests and `npm start -- --demo`.
 *
 * Each transaction works on a snapshot of the committed data as it was when
 * the transaction began. Its commit is refused, changing nothing, when
 *   - another transaction committed a change to a row this one changed, or
 *     selected with `forUpdate`, after this one began (first committer wins);
 *   - it is 'serializable' and one of its selects would now give other rows,
 *     or rows another transaction has changed since (asked again over the
 *     committed data with this transaction's own writes made before it).
 * A refused commit rejects with "could not serialize access …" and ends the
 * transaction; the work may be run again in a new one.
 */

const matching = (rows, where) => [...rows.values()].filter((row) => Object.entries(where).every(([field, value]) => row[field] === value));
const copy = (tables) => Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, new Map([...rows].map(([id, row]) => [id, { ...row }]))]));

/**
 * @param {object} options
 * @param {Record<string, object[]>} options.tables initial rows of each table; every row has an `id`
 * @param {() => Promise<void>} [options.roundTrip] awaited before each call reaches the data (the network)
 * @returns {import('./sql-gateway.js').Database & { rows(table: string): object[] }}
 */
export function createMemoryDatabase({ tables, roundTrip = async () => {} }) {
  let committed = Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, new Map(rows.map((row) => [row.id, { ...row }]))]));
  /** "table/id" → how many commits changed the row */
  const versions = new Map();
  const transactions = new Map();
  let started = 0;

  const open = (id) => {
    const tx = transactions.get(id);
    if (!tx || !tx.open) throw new Error(`transaction ${id} is not open`);
    return tx;
  };
  const write = (tx, table, rowId, row) => {
    if (row === null) tx.data[table].delete(rowId);
    else tx.data[table].set(rowId, row);
    tx.writes.add(`${table}/${rowId}`);
  };

  return {
    async begin(isolation = 'repeatable read') {
      await roundTrip();
      const id = `tx${++started}`;
      transactions.set(id, { open: true, isolation, data: copy(committed), seen: new Map(versions), reads: [], writes: new Set(), locks: new Set() });
      return id;
    },

    async select(id, table, where, { forUpdate = false } = {}) {
      await roundTrip();
      const tx = open(id);
      const rows = matching(tx.data[table], where);
      // The rows this transaction had written in the table so far (null: deleted), which the select saw.
      const own = [...tx.writes].filter((key) => key.startsWith(`${table}/`)).map((key) => key.slice(table.length + 1))
        .map((rowId) => [rowId, tx.data[table].get(rowId) ?? null]);
      tx.reads.push({ table, where, ids: rows.map((row) => row.id).sort().join(), own });
      if (forUpdate) for (const row of rows) tx.locks.add(`${table}/${row.id}`);
      return rows.map((row) => ({ ...row }));
    },

    async insert(id, table, row) {
      await roundTrip();
      const tx = open(id);
      if (tx.data[table].has(row.id)) throw new Error(`duplicate key value violates unique constraint "${table}_pkey"`);
      write(tx, table, row.id, { ...row });
      return { ok: true };
    },

    async update(id, table, rowId, fields) {
      await roundTrip();
      const tx = open(id);
      const row = tx.data[table].get(rowId);
      if (!row) return { updated: 0 };
      write(tx, table, rowId, { ...row, ...fields });
      return { updated: 1 };
    },

    async delete(id, table, rowId) {
      await roundTrip();
      const tx = open(id);
      if (!tx.data[table].has(rowId)) return { deleted: 0 };
      write(tx, table, rowId, null);
      return { deleted: 1 };
    },

    async commit(id) {
      await roundTrip();
      const tx = open(id);
      tx.open = false;
      const version = (key, from) => from.get(key) ?? 0;
      if ([...tx.writes, ...tx.locks].some((key) => version(key, versions) !== version(key, tx.seen))) {
        throw new Error('could not serialize access due to concurrent update');
      }
      const stale = tx.isolation === 'serializable' && tx.reads.some((read) => {
        const seen = new Map(committed[read.table]);
        for (const [rowId, row] of read.own) row ? seen.set(rowId, row) : seen.delete(rowId);
        const now = matching(seen, read.where).map((row) => row.id).sort();
        return now.join() !== read.ids || now.some((rowId) => version(`${read.table}/${rowId}`, versions) !== version(`${read.table}/${rowId}`, tx.seen));
      });
      if (stale) throw new Error('could not serialize access due to read/write dependencies among transactions');
      const next = copy(committed);
      for (const key of tx.writes) {
        const [table, rowId] = key.split('/');
        const row = tx.data[table].get(rowId);
        if (row) next[table].set(rowId, { ...row });
        else next[table].delete(rowId);
        versions.set(key, version(key, versions) + 1);
      }
      committed = next;
      return { committed: true };
    },

    async rollback(id) {
      await roundTrip();
      const tx = transactions.get(id);
      if (tx) tx.open = false;
      return { ok: true };
    },

    /** The committed rows of a table, for tests and the demo. */
    rows(table) {
      return [...committed[table].values()].map((row) => ({ ...row }));
    },
  };
}
