/**
 * The keys database (PostgreSQL, table api_keys), the source of truth for every
 * API key. gatekeeper reads and writes the primary only; the reporting replica
 * is not used here.
 *
 * @typedef {object} KeyRecord
 * @property {string} keyId e.g. "key_7Hq2"
 * @property {string} tenant the customer the key belongs to
 * @property {'active' | 'revoked'} status
 * @property {string[]} scopes what the key may do, e.g. ["orders:read", "orders:write"]
 * @property {number} version raised by one on every change of the row
 * @property {string} updatedAt when the row last changed
 *
 * @typedef {{ status?: 'revoked', scopes?: string[] }} KeyChange
 *
 * @typedef {object} KeysDb
 * @property {(keyId: string) => Promise<KeyRecord | null>} findKey
 *   the row as committed when the query ran, or null when there is no such key
 * @property {(keyId: string, change: KeyChange) => Promise<KeyRecord>} updateKey
 *   applies the change and raises the version in one statement, and returns the
 *   new row once it is committed
 */

const FIND = 'SELECT key_id, tenant, status, scopes, version, updated_at FROM api_keys WHERE key_id = $1';
const UPDATE = `UPDATE api_keys
   SET status = COALESCE($2, status), scopes = COALESCE($3, scopes), version = version + 1, updated_at = now()
 WHERE key_id = $1
 RETURNING key_id, tenant, status, scopes, version, updated_at`;

/**
 * Creates the production client: statements go to the database's HTTP query
 * gateway, one POST each, in autocommit.
 * @param {{ url: string, timeoutMs?: number, fetch?: typeof fetch }} options
 * @returns {KeysDb}
 */
export function createKeysDb({ url, timeoutMs = 2_000, fetch = globalThis.fetch }) {
  const query = async (sql, params) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sql, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = await response.json().catch(() => ({}));
    if (!response.ok || body.error) throw new Error(`keys-db query failed: ${body.error ?? `HTTP ${response.status}`}`);
    return body.rows ?? [];
  };
  const record = (row) => ({
    keyId: row.key_id, tenant: row.tenant, status: row.status, scopes: row.scopes, version: Number(row.version), updatedAt: row.updated_at,
  });
  return {
    async findKey(keyId) {
      const [row] = await query(FIND, [keyId]);
      return row ? record(row) : null;
    },
    async updateKey(keyId, change) {
      const [row] = await query(UPDATE, [keyId, change.status ?? null, change.scopes ?? null]);
      if (!row) throw new Error(`no API key ${keyId}`);
      return record(row);
    },
  };
}
