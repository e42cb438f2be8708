/**
 * The event bus: Fernhill's message broker, reached over its publish API.
 *
 *   publish(topic, event)   hands `event` to every subscriber of `topic`
 *
 * Delivery to subscribers is at least once: a subscriber may get an event
 * twice, and every subscriber ignores an event whose `id` it has handled
 * before (the refunds service keeps the ids it paid for with the payment).
 * Two events with different ids are two events, whatever they say.
 *
 * A publish can fail. "bus unavailable" means the broker refused it and has
 * nothing; "publish timed out" means the broker did not confirm in time, and
 * it may or may not have the event.
 *
 * @typedef {object} EventBus
 * @property {(topic: string, event: { id: string, type: string }) => Promise<{ offset: number }>} publish
 */

/** The methods of an EventBus. */
export const BUS_METHODS = Object.freeze(['publish']);

/**
 * The production client.
 *
 * @param {{ baseUrl: string, token: string, timeoutMs: number, fetch?: typeof globalThis.fetch }} options
 * @returns {EventBus}
 */
export function createEventBusClient({ baseUrl, token, timeoutMs, fetch = globalThis.fetch }) {
  return {
    async publish(topic, event) {
      let response;
      try {
        response = await fetch(`${baseUrl}/topics/${encodeURIComponent(topic)}/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(event),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new Error(`publish timed out after ${timeoutMs} ms: ${error.message}`);
      }
      if (!response.ok) throw new Error(`bus unavailable: the broker answered ${response.status}`);
      return response.json();
    },
  };
}
