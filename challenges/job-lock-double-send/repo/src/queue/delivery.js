/**
 * An in-memory queue with the broker's delivery semantics, used for local runs
 * (`npm start`) and tests. In production the platform's broker client provides
 * the same four calls.
 *
 * Delivery is at-least-once:
 *   - receive() hands out a message and hides it for the visibility timeout;
 *   - ack() removes it for good;
 *   - a message that is not acked before its visibility timeout runs out becomes
 *     visible again and is delivered again, with attempt + 1, to whichever worker
 *     asks next. The first delivery may still be running when that happens.
 */

/**
 * @typedef {object} Delivery
 * @property {string} id message id (the same on every delivery of the message)
 * @property {string} jobId
 * @property {number} attempt 1 for the first delivery, 2 for the next, …
 * @property {object} payload
 * @property {string} receiptHandle identifies this particular delivery; pass it to ack()
 */

/**
 * Creates an empty queue.
 *
 * @param {object} options
 * @param {import('../clock.js').Clock} options.clock decides when visibility runs out
 * @param {number} options.visibilityTimeoutMs how long a received message stays hidden
 * @returns {DeliveryQueue}
 */
export function createDeliveryQueue(options) {
  return new DeliveryQueue(options);
}

/** See {@link createDeliveryQueue}. */
export class DeliveryQueue {
  #clock;
  #visibilityTimeoutMs;
  /** @type {Map<string, { id: string, jobId: string, payload: object, attempts: number, visibleAt: number }>} */
  #messages = new Map();
  #sequence = 0;
  #stats = { publishes: 0, deliveries: 0, redeliveries: 0, acks: 0, staleAcks: 0 };

  constructor({ clock, visibilityTimeoutMs }) {
    if (!clock) throw new TypeError('DeliveryQueue: a clock is required');
    if (!(visibilityTimeoutMs > 0)) throw new RangeError('DeliveryQueue: visibilityTimeoutMs must be positive');
    this.#clock = clock;
    this.#visibilityTimeoutMs = visibilityTimeoutMs;
  }

  /**
   * Enqueues one job. Called by producers.
   * @param {{ jobId: string, payload: object }} job
   * @returns {Promise<string>} the new message id
   */
  async publish({ jobId, payload }) {
    this.#sequence += 1;
    const id = `msg-${this.#sequence.toString(16).padStart(8, '0')}`;
    this.#messages.set(id, { id, jobId, payload, attempts: 0, visibleAt: this.#clock.now() });
    this.#stats.publishes += 1;
    return id;
  }

  /**
   * Delivers the oldest visible message and hides it for the visibility timeout.
   * @returns {Promise<Delivery | null>} null when nothing is visible right now
   */
  async receive() {
    const now = this.#clock.now();
    for (const message of this.#messages.values()) {
      if (message.visibleAt > now) continue;
      message.attempts += 1;
      message.visibleAt = now + this.#visibilityTimeoutMs;
      this.#stats.deliveries += 1;
      if (message.attempts > 1) this.#stats.redeliveries += 1;
      return Object.freeze({
        id: message.id,
        jobId: message.jobId,
        attempt: message.attempts,
        payload: message.payload,
        receiptHandle: `${message.id}/${message.attempts}`,
      });
    }
    return null;
  }

  /**
   * Removes a delivered message for good. Like the broker, an ack with the
   * receipt of an earlier delivery still removes the message.
   *
   * @param {string} receiptHandle from the delivery being acked
   * @returns {Promise<boolean>} false if the message was already removed
   */
  async ack(receiptHandle) {
    const [id, attempt] = String(receiptHandle).split('/');
    const message = this.#messages.get(id);
    if (!message) {
      this.#stats.staleAcks += 1;
      return false;
    }
    if (Number(attempt) !== message.attempts) this.#stats.staleAcks += 1;
    this.#messages.delete(id);
    this.#stats.acks += 1;
    return true;
  }

  /**
   * Delivery counters, named like the dashboard's queue panel.
   * @returns {Record<string, number>}
   */
  stats() {
    return {
      'producer publishes': this.#stats.publishes,
      'queue message ids': this.#sequence,
      deliveries: this.#stats.deliveries,
      redeliveries: this.#stats.redeliveries,
      acks: this.#stats.acks,
      'stale acks': this.#stats.staleAcks,
      'messages waiting': this.#messages.size,
    };
  }
}
