/**
 * Client for the people-data enrichment API (OUT-412, 2026-04-08).
 *
 * Before each send the worker looks the candidate up to get their current
 * title and company, and the template opens with them ("Congrats on the move
 * to Staff Engineer at Quillpay"). Lookups are slow: about 3.2 s at p50 in
 * production, because the API refreshes stale profiles on read.
 *
 * A lookup that fails or times out is not fatal: the caller sends the e-mail
 * without the personal opener.
 *
 * @typedef {object} Profile
 * @property {string} candidateId
 * @property {string | null} currentTitle
 * @property {string | null} currentCompany
 * @property {string} refreshedAt ISO time the profile was last refreshed
 *
 * @typedef {object} EnrichmentClient
 * @property {(candidateId: string) => Promise<Profile>} lookup
 */

/**
 * The production client.
 *
 * @param {object} options
 * @param {string} options.url base URL, e.g. https://people.internal/v2
 * @param {string} [options.token] API key
 * @param {number} options.timeoutMs give up after this long
 * @param {typeof fetch} [options.fetch]
 * @returns {EnrichmentClient}
 */
export function createEnrichmentClient({ url, token, timeoutMs, fetch = globalThis.fetch }) {
  return {
    async lookup(candidateId) {
      const response = await fetch(`${url}/profiles/${encodeURIComponent(candidateId)}?refresh=stale`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`enrichment lookup ${candidateId}: HTTP ${response.status}`);
      const body = await response.json();
      return {
        candidateId,
        currentTitle: body.current_position?.title ?? null,
        currentCompany: body.current_position?.company ?? null,
        refreshedAt: body.refreshed_at,
      };
    },
  };
}

/**
 * Canned profiles for local runs.
 * @param {import('../clock.js').Clock} clock
 * @returns {EnrichmentClient}
 */
export function createSandboxEnrichment(clock) {
  return {
    async lookup(candidateId) {
      return { candidateId, currentTitle: 'Senior Backend Engineer', currentCompany: 'Example Corp', refreshedAt: new Date(clock.now()).toISOString() };
    },
  };
}
