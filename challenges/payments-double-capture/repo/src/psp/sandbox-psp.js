/**
 * A stand-in for Kestrel Pay, for local runs and tests: it keeps every
 * capture it creates and answers after a latency measured on the injected
 * clock, so that a test can hold a capture "at the PSP" while other requests
 * run.
 *
 * Like Kestrel, it never deduplicates: each successful capture() creates a
 * new capture.
 */

import { PspError } from './kestrel-client.js';

/**
 * @param {object} options
 * @param {import('../clock.js').Clock} options.clock
 * @param {(call: number) => number} [options.latencyMs] latency of the n-th call (1-based)
 * @param {(call: number) => string | null} [options.failWith] an error code to fail the n-th call with, or null
 * @returns {import('./kestrel-client.js').PaymentProvider & { captures: object[], calls: number }}
 */
export function createSandboxPsp({ clock, latencyMs = () => 350, failWith = () => null }) {
  const captures = [];
  const sandbox = {
    captures,
    calls: 0,
    async capture({ paymentId, amount, currency, reference }) {
      sandbox.calls += 1;
      const call = sandbox.calls;
      await clock.sleep(latencyMs(call));
      const code = failWith(call);
      if (code) throw new PspError(code, `sandbox: capture ${call} failed with ${code}`, 503);
      const capture = {
        captureId: `cap_sbx${String(captures.length + 1).padStart(4, '0')}`,
        status: 'succeeded',
        amount,
        currency,
        capturedAt: new Date(clock.now()).toISOString(),
      };
      captures.push({ ...capture, paymentId, reference });
      return capture;
    },
  };
  return sandbox;
}
