/**
 * Who of a team is on call now: what the pager asks before it pages, what
 * GET /teams/:team/on-call answers and what the nightly reminder lists.
 * A read in a transaction of its own; it changes nothing.
 */

/**
 * @param {import('../db/sql-gateway.js').Database} db
 * @param {string} team
 * @returns {Promise<string[]>} the users on call, sorted
 */
export async function whoIsOnCall(db, team) {
  const tx = await db.begin();
  try {
    const rows = await db.select(tx, 'rota', { team, on_call: true });
    return rows.map((row) => row.user).sort();
  } finally {
    await db.rollback(tx);
  }
}
