/**
 * Going off call. The rota lives in the database's `rota` table, one row per
 * engineer of a team: `{ id: '<user>@<team>', team, user, on_call }`. The
 * pager pages whoever of a team has `on_call` set, so a team must always keep
 * at least one engineer on call: an engineer may go off call only while
 * someone else of the team stays on.
 *
 * History: until 4.0 the rota service ran as one pod, which queued the
 * requests of a team one after another in memory (ROTA-212). Since 4.0 two
 * pods serve it and the check below is the only guard.
 */

import { silentLogger } from '../logger.js';

/** The `rota` row id of an engineer on a team. */
export const rotaRowId = (team, user) => `${user}@${team}`;

/** The users of some rota rows, for the logs: "ana,ravi". */
const usersOf = (rows) => rows.map((row) => row.user).join(',');

/** The database refused a commit because of a concurrent one (SQLSTATE 40001). */
const refusedForConcurrency = (error) => /could not serialize access/.test(error.message);

/**
 * Creates the off-call helper of one pod.
 *
 * @param {object} options
 * @param {import('../db/sql-gateway.js').Database} options.db the rota database
 * @param {import('../clock.js').Clock} options.clock times each transaction for the debug log
 * @param {import('../logger.js').Logger} [options.logger]
 */
export function createOffCall({ db, clock, logger = silentLogger }) {
  return {
    /**
     * Takes `user` off call for `team`, unless nobody else of the team is on call.
     * @param {{ team: string, user: string }} request
     * @returns {Promise<'off-call' | 'last-on-call' | 'not-on-call'>}
     */
    async goOffCall({ team, user }) {
      for (let run = 1; ; run += 1) {
        const began = clock.now();
        const tx = await db.begin();
        // The check rests on every on-call row of the team, not only on the
        // row this request changes: lock them all, so that a transaction that
        // took any of them off call since this one began cannot commit beside
        // it. The database then refuses one of the two commits.
        const onCall = await db.select(tx, 'rota', { team, on_call: true }, { forUpdate: true });
        logger.debug({ msg: 'rota read', tx, run, on_call_seen: onCall.length, on_call: usersOf(onCall) });
        if (!onCall.some((row) => row.user === user)) {
          await db.rollback(tx);
          return 'not-on-call';
        }
        if (onCall.length < 2) {
          await db.rollback(tx);
          return 'last-on-call';
        }
        await db.update(tx, 'rota', rotaRowId(team, user), { on_call: false });
        try {
          await db.commit(tx);
        } catch (error) {
          // Refused: the rota changed under this transaction. Check again on
          // a fresh snapshot, which sees the change that won. No limit on the
          // runs: any number of the team's requests may run at once, and each
          // refusal means one of them took its engineer off call, so a
          // request is refused at most once per engineer on call, and the
          // run after the last one finds the rota settled.
          if (!refusedForConcurrency(error)) throw error;
          logger.info({ msg: 'rota changed meanwhile, checking again', tx, run });
          continue;
        }
        logger.debug({ msg: 'rota committed', tx, tx_ms: clock.now() - began });
        return 'off-call';
      }
    },
  };
}
