/**
 * The decision for one API request, from its key's record: the HTTP status the
 * API edge answers with.
 *
 *   200  the key is active and has the scope the endpoint needs
 *   401  no such key, or the key was revoked
 *   403  the key is active but lacks the scope
 */

/**
 * @param {import('../keys/keys-db.js').KeyRecord | null} record
 * @param {string} scope the scope the endpoint needs, e.g. "orders:write"
 * @returns {{ status: 200 | 401 | 403, reason: string }}
 */
export function authorize(record, scope) {
  if (record === null) return { status: 401, reason: 'unknown key' };
  if (record.status !== 'active') return { status: 401, reason: `key ${record.status}` };
  if (!record.scopes.includes(scope)) return { status: 403, reason: `missing scope ${scope}` };
  return { status: 200, reason: 'ok' };
}
