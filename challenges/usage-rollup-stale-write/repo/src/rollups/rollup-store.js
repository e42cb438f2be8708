/**
 * The rollup store: the object store invoicing reads rollups from
 * (ROLLUP_STORE_URL in production). Its interface:
 *
 * @typedef {object} RollupStore
 * @property {(key: string) => Promise<string | null>} read the object at `key`, or null
 * @property {(key: string, body: string, fence: number) => Promise<{ ok: true }>} write
 *   stores `body` at `key`. Since BILL-2270 (2026-10-19) every PUT carries a
 *   fence, a whole number: the store keeps, per key, the highest fence it has
 *   accepted, and refuses a write whose fence is lower with an error whose
 *   message starts with "stale". Writers that have no fence send 0, which the
 *   store accepts until some write with a fence of 1 or more reached the key.
 *   The nightly backfill tool fences its writes; see docs/rollup-store.md in
 *   the platform repository.
 */

/**
 * Whether an error from {@link RollupStore.write} means the store refused the
 * write because a higher fence had written the key.
 * @param {unknown} error
 */
export function isStaleWrite(error) {
  return error instanceof Error && error.message.startsWith('stale');
}
