/**
 * An in-memory database with the interface of the production one, for tests
 * and local runs. Tables hold rows with an `id`. Each transaction works on a
 * snapshot of the data as it began; its commit is refused (rejects with
 * "could not serialize access …") when another transaction committed a change
 * to a row it wrote or selected `forUpdate`, and, for a 'serializable'
 * transaction, when any of its selects would now give other rows.
 *
 * @typedef {object} Database
 * @property {(isolation?: 'snapshot' | 'serializable') => Promise<string>} begin a transaction; 'snapshot' by default
 * @property {(tx: string, table: string, where: object, options?: { forUpdate?: boolean }) => Promise<object[]>} select
 *   the rows whose fields equal every field of `where`
 * @property {(tx: string, table: string, id: string, fields: object) => Promise<{ updated: number }>} update
 * @property {(tx: string) => Promise<{ committed: true }>} commit
 * @property {(tx: string) => Promise<{ ok: true }>} rollback
 */

const matching = (rows, where) => rows.filter((row) => Object.entries(where).every(([field, value]) => row[field] === value));
const copy = (tables) => Object.fromEntries(Object.entries(tables).map(([name, rows]) => [name, rows.map((row) => ({ ...row }))]));

/**
 * @param {{ tables: Record<string, object[]>, roundTrip?: () => Promise<void> }} options
 *   `roundTrip`, when given, is awaited before each call reaches the database
 * @returns {Database & { rows(table: string): object[] }}
 */
export function createMemoryDatabase({ tables, roundTrip = async () => {} }) {
  let committed = copy(tables);
  /** @type {Map<string, number>} "table/id" → how many commits changed the row */
  const versions = new Map();
  const transactions = new Map();

  return {
    async begin(isolation = 'snapshot') {
      await roundTrip();
      const id = `tx${transactions.size + 1}`;
      transactions.set(id, { isolation, data: copy(committed), seen: new Map(versions), reads: [], guarded: new Set() });
      return id;
    },
    async select(id, table, where, { forUpdate = false } = {}) {
      await roundTrip();
      const tx = transactions.get(id);
      const rows = matching(tx.data[table], where);
      tx.reads.push({ table, where, ids: rows.map((r) => r.id).join() });
      if (forUpdate) for (const row of rows) tx.guarded.add(`${table}/${row.id}`);
      return rows.map((row) => ({ ...row }));
    },
    async update(id, table, rowId, fields) {
      await roundTrip();
      const tx = transactions.get(id);
      const row = tx.data[table].find((r) => r.id === rowId);
      if (!row) return { updated: 0 };
      Object.assign(row, fields);
      tx.guarded.add(`${table}/${rowId}`);
      return { updated: 1 };
    },
    async commit(id) {
      await roundTrip();
      const tx = transactions.get(id);
      transactions.set(id, { ...tx, data: null });
      const changed = [...tx.guarded].some((key) => (versions.get(key) ?? 0) !== (tx.seen.get(key) ?? 0));
      const readsChanged = tx.isolation === 'serializable'
        && tx.reads.some((r) => matching(committed[r.table], r.where).map((row) => row.id).join() !== r.ids);
      if (changed || readsChanged) throw new Error('could not serialize access due to a concurrent change');
      const next = copy(committed);
      for (const key of tx.guarded) {
        const [table, rowId] = key.split('/');
        const row = tx.data[table].find((r) => r.id === rowId);
        next[table] = next[table].map((r) => (r.id === rowId ? { ...row } : r));
        versions.set(key, (versions.get(key) ?? 0) + 1);
      }
      committed = next;
      return { committed: true };
    },
    async rollback(id) {
      await roundTrip();
      transactions.set(id, { ...transactions.get(id), data: null });
      return { ok: true };
    },
    /** The committed rows of a table, for tests. */
    rows(table) {
      return committed[table].map((row) => ({ ...row }));
    },
  };
}
