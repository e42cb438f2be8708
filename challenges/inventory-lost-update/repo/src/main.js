/**
 * Process entry point: wires the real clock, the inventory cache, the PSP and
 * the HTTP routes. Importing this module starts nothing; running it does.
 *
 *   node src/main.js            serve on PORT (8080)
 *   node src/main.js --demo     no server: a tiny drop (3 bags, 6 buyers, 2 pods) in memory
 *
 * Environment:
 *   INVENTORY_CACHE_URL, INVENTORY_CACHE_TOKEN   the cache gateway; without a URL an in-memory cache is used
 *   KESTRELPAY_URL, KESTRELPAY_API_KEY           the PSP; without a key a sandbox PSP that approves everything
 *   LOG_LEVEL                                    debug | info | warn | error (default info)
 *   see src/config.js for the rest
 */

import { pathToFileURL } from 'node:url';
import { createCheckout } from './checkout/checkout.js';
import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { createServer } from './http/server.js';
import { loadSaleStock } from './inventory/stock-loader.js';
import { stockKey } from './inventory/reservations.js';
import { createLogger } from './logger.js';
import { createMetrics } from './metrics.js';
import { createKestrelPayTransport } from './payments/psp-client.js';
import { createMemoryStore } from './persistence/memory-store.js';
import { RemoteStore, createGatewayTransport } from './persistence/remote-store.js';
import { createBadgeHandler } from './storefront/stock-badge.js';

/** A PSP that approves every charge, for local runs. */
function sandboxPsp(clock) {
  let n = 0;
  return {
    async charge(request) {
      await clock.sleep(40);
      n += 1;
      return { id: `ch_sandbox_${n}`, status: 'succeeded', idempotent_replay: false, metadata: { order_id: request.orderId } };
    },
  };
}

/**
 * Runs the drop demo: two pods race for three bags over a cache that is a
 * couple of milliseconds away, as in production.
 */
async function demo({ env, write, clock }) {
  const logger = createLogger({ clock, write, level: env.LOG_LEVEL || 'info' });
  const metrics = createMetrics();
  const store = createMemoryStore({ clock, beforeOperation: () => clock.sleep(2) });
  const psp = sandboxPsp(clock);
  const sku = 'FH-LOT7-GESHA-250';
  await loadSaleStock({ store, lots: [{ sku, units: 3 }], logger });

  const pods = ['checkout-demo-a', 'checkout-demo-b'].map((podId) => createCheckout({ podId, store, psp, clock, logger, metrics }));
  const buyers = Array.from({ length: 6 }, (_, i) => ({
    orderId: `FH-DEMO-${String(i + 1).padStart(4, '0')}`,
    customerId: `cus_demo${i + 1}`,
    sku,
    quantity: 1,
    amountMinor: 2400,
    currency: 'EUR',
    paymentMethod: `pm_demo${i + 1}`,
  }));
  // Each pod works through its own half of the buyers, one checkout at a time.
  const halves = [buyers.filter((_, i) => i % 2 === 0), buyers.filter((_, i) => i % 2 === 1)];
  const outcomes = await Promise.all(pods.map(async (pod, p) => {
    const mine = [];
    for (const request of halves[p]) mine.push([request.orderId, await pod.handle(request)]);
    return mine;
  }));
  write(outcomes.flat().sort().map(([order, outcome]) => `${order} ${outcome}`).join('\n'));
  write(metrics.render());
  write(`${stockKey(sku)} = ${(await store.get(stockKey(sku)))} (3 bags were loaded)`);
}

/**
 * @param {object} options
 * @param {string[]} options.argv
 * @param {Record<string, string | undefined>} options.env
 * @param {(line: string) => void} options.write
 * @param {AbortSignal} options.signal stops the server
 * @param {import('./clock.js').Clock} [options.clock]
 */
export async function run({ argv, env, write, signal, clock = systemClock }) {
  if (argv.includes('--demo')) return demo({ env, write, clock });

  const config = loadConfig(env);
  const logger = createLogger({ clock, write, level: env.LOG_LEVEL || 'info' });
  const metrics = createMetrics();
  const podId = env.HOSTNAME || 'checkout-local';

  let store;
  if (env.INVENTORY_CACHE_URL) {
    store = new RemoteStore({ transport: createGatewayTransport({ url: env.INVENTORY_CACHE_URL, token: env.INVENTORY_CACHE_TOKEN }) });
  } else {
    logger.warn({ msg: 'INVENTORY_CACHE_URL not set: stock lives in this process only' });
    store = createMemoryStore({ clock });
  }
  const psp = env.KESTRELPAY_API_KEY
    ? createKestrelPayTransport({ url: env.KESTRELPAY_URL, apiKey: env.KESTRELPAY_API_KEY, timeoutMs: config.pspTimeoutMs })
    : sandboxPsp(clock);

  const checkout = createCheckout({ podId, store, psp, clock, logger, metrics, config });
  const badge = createBadgeHandler({ store, maxAgeSeconds: config.badgeMaxAgeSeconds });
  const server = createServer({ checkout, badge, logger });

  await new Promise((resolve) => server.listen(config.port, resolve));
  logger.info({ msg: 'listening', pod: podId, port: config.port, reservations: config.reservations });
  await new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', resolve, { once: true });
  });
  await new Promise((resolve) => server.close(resolve));
  write(metrics.render());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const controller = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM']) process.once(sig, () => controller.abort());
  run({ argv: process.argv.slice(2), env: process.env, write: (line) => process.stdout.write(`${line}\n`), signal: controller.signal })
    .catch((error) => {
      process.stderr.write(`${error.stack ?? error}\n`);
      process.exitCode = 1;
    });
}
