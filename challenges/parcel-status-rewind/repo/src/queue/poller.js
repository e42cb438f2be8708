/**
 * Pulls messages from the tracking-events queue and hands each to the
 * tracker, up to `concurrency` at a time. A message is deleted once handle()
 * resolves; one whose handling throws is left alone, and the queue makes it
 * visible again when its visibility timeout runs out.
 *
 * The queue is a standard queue: at-least-once, no order. See the README's
 * fault model.
 */

/**
 * @param {object} deps
 * @param {string} deps.queueUrl
 * @param {{ handle(message: object): Promise<unknown> }} deps.tracker
 * @param {number} deps.concurrency
 * @param {number} deps.visibilityTimeoutMs
 * @param {import('../logger.js').Logger} deps.log
 * @param {typeof fetch} [deps.fetch]
 */
export function createPoller({ queueUrl, tracker, concurrency, visibilityTimeoutMs, log, fetch = globalThis.fetch }) {
  let inFlight = 0;
  let stopped = false;

  const call = async (action, body) => {
    const response = await fetch(`${queueUrl}/${action}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`queue ${action} failed: HTTP ${response.status}`);
    return response.json();
  };

  async function one(received) {
    inFlight += 1;
    try {
      const message = { ...JSON.parse(received.body), messageId: received.messageId, attempt: received.receiveCount };
      await tracker.handle(message);
      await call('delete', { receiptHandle: received.receiptHandle });
    } catch (error) {
      log.warn({ message: received.messageId, attempt: received.receiveCount, result: 'retry', error: error.message });
    } finally {
      inFlight -= 1;
    }
  }

  /** Receives and dispatches until stop() is called. */
  async function run() {
    while (!stopped) {
      const room = concurrency - inFlight;
      if (room === 0) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      const { messages } = await call('receive', { max: Math.min(room, 10), waitSeconds: 20, visibilityTimeoutMs });
      for (const received of messages) one(received);
    }
  }

  return { run, stop: () => { stopped = true; } };
}
