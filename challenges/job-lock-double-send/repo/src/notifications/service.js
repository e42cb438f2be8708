/**
 * Sends shipment notifications through the external notification provider.
 *
 * The provider accepts a message and delivers it to the customer; once send()
 * has resolved, the customer will get the e-mail. The provider stores the
 * dedupeKey we pass on the message for support look-ups ("which job sent
 * this?"), but it does not drop a second message with the same key: avoiding
 * a second send is our job.
 *
 * @typedef {object} OutgoingNotification
 * @property {string} to recipient address
 * @property {string} subject
 * @property {string} body
 * @property {string} dedupeKey our identifier for the notification, shipment:<jobId>
 *
 * @typedef {object} NotificationProvider
 * @property {(notification: OutgoingNotification) => Promise<{ providerMessageId: string }>} send
 *
 * @typedef {object} SendReceipt
 * @property {string} providerMessageId the provider's id for the accepted message
 * @property {string} dedupeKey the key we sent it with
 */

import { renderShipmentNotification } from './templates.js';
import { silentLogger } from '../logger.js';

/**
 * The dedupe key of a job's notification.
 * @param {string} jobId
 * @returns {string}
 */
export function dedupeKeyFor(jobId) {
  return `shipment:${jobId}`;
}

/**
 * Creates the notification service.
 *
 * @param {object} options
 * @param {NotificationProvider} options.provider the external provider
 * @param {import('../logger.js').Logger} [options.logger]
 */
export function createNotificationService({ provider, logger = silentLogger }) {
  if (!provider || typeof provider.send !== 'function') {
    throw new TypeError('createNotificationService: provider.send is required');
  }
  return {
    /**
     * Renders and sends the notification for one shipment message.
     * Every call that resolves has reached the customer.
     *
     * @param {import('../queue/message.js').ShipmentMessage} message
     * @returns {Promise<SendReceipt>}
     */
    async sendShipmentNotification(message) {
      const { subject, body } = renderShipmentNotification(message.payload);
      const dedupeKey = dedupeKeyFor(message.jobId);
      const { providerMessageId } = await provider.send({
        to: message.payload.recipient,
        subject,
        body,
        dedupeKey,
      });
      logger.debug({ job: message.jobId, msg: 'provider accepted', provider_message_id: providerMessageId, dedupe_key: dedupeKey });
      return { providerMessageId, dedupeKey };
    },
  };
}

/**
 * A provider for local runs: prints the notification instead of sending it.
 *
 * @param {(line: string) => void} write where to print
 * @returns {NotificationProvider}
 */
export function createSandboxProvider(write) {
  let sent = 0;
  return {
    async send({ to, subject, dedupeKey }) {
      sent += 1;
      const providerMessageId = `sandbox-${sent}`;
      write(`[sandbox provider] to=${to} subject=${JSON.stringify(subject)} dedupe_key=${dedupeKey} id=${providerMessageId}`);
      return { providerMessageId };
    },
  };
}
