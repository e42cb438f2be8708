/**
 * Handles one off-call request, from the Slack button or from
 * `POST /teams/:team/off-call`, and answers with its outcome:
 *
 *   'off-call'      the engineer is off call now                      HTTP 200
 *   'last-on-call'  refused: nobody else of the team is on call        HTTP 409
 *   'not-on-call'   the engineer was not on call for that team         HTTP 409
 *
 * A request that throws is answered HTTP 503 ("try again"); the caller then
 * still is on call.
 */

import { createOffCall } from './off-call.js';
import { silentLogger } from '../logger.js';
import { noMetrics } from '../metrics.js';

/**
 * Creates the handler of one pod.
 *
 * @param {object} deps
 * @param {string} deps.podId this pod's name, e.g. "2xkqp"
 * @param {import('../db/sql-gateway.js').Database} deps.db the rota database, shared by every pod
 * @param {import('../clock.js').Clock} deps.clock
 * @param {import('../logger.js').Logger} [deps.logger]
 * @param {import('../metrics.js').Metrics} [deps.metrics]
 * @returns {{ podId: string, handle(request: { requestId: string, team: string, user: string, via?: string }): Promise<string> }}
 */
export function createRotaHandler({ podId, db, clock, logger = silentLogger, metrics = noMetrics }) {
  const log = logger.with({ pod: podId });
  const offCall = createOffCall({ db, clock, logger: log });

  return {
    podId,
    async handle({ requestId, team, user, via = 'api' }) {
      if (!team || !user) throw new TypeError('an off-call request names a team and a user');
      const started = clock.now();
      log.info({ request: requestId, team, msg: 'off-call request', user, via });
      const outcome = await offCall.goOffCall({ team, user });
      metrics.count(`off_call_requests{outcome="${outcome}"}`);
      log.info({ request: requestId, team, msg: 'off-call answered', user, result: outcome, took_ms: clock.now() - started });
      return outcome;
    },
  };
}
