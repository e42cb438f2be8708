/**
 * An in-memory event bus for the tests and the demo: it keeps every event
 * published, in order. `beforeCall` is awaited at the start of every publish,
 * and `failNext(message)` makes the next publish fail without keeping the
 * event, as a refused publish does.
 */

/**
 * @param {{ beforeCall?: () => Promise<void> }} [options]
 * @returns {import('./event-bus.js').EventBus & { events: Array<{ topic: string, event: object }>, failNext(message: string): void }}
 */
export function createMemoryBus({ beforeCall = async () => {} } = {}) {
  const events = [];
  let failure = null;
  return {
    events,
    failNext: (message) => { failure = message; },
    async publish(topic, event) {
      await beforeCall();
      if (failure) {
        const message = failure;
        failure = null;
        throw new Error(message);
      }
      events.push({ topic, event: structuredClone(event) });
      return { offset: events.length - 1 };
    },
  };
}
