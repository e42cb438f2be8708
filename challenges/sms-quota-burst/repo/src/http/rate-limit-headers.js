/**
 * The rate-limit headers of every POST /v1/sms answer, as documented for
 * partners (docs.kitewire.io/sms/limits):
 *
 *   X-RateLimit-Limit      the partner's requests per window
 *   X-RateLimit-Remaining  requests left in the current window
 *   X-RateLimit-Reset      when the next window starts, epoch seconds (decimal)
 *   Retry-After            on a 429: whole seconds until then, at least 1
 *
 * Partner SDKs pace a batch by these: the official one waits until Reset when
 * Remaining reaches 0.
 */

/**
 * @param {{ limit: number, remaining: number, resetAt: number }} limits
 * @param {number} now epoch ms
 * @param {number} status the answer's status
 * @returns {Record<string, string>}
 */
export function rateLimitHeaders({ limit, remaining, resetAt }, now, status) {
  const headers = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': (resetAt / 1000).toFixed(3),
  };
  if (status === 429) headers['Retry-After'] = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
  return headers;
}
