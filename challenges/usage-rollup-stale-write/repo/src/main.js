/**
 * Local entry point: runs one compaction of a sample tenant against the
 * in-memory services, and prints the rollup. Production wires the lease
 * service, the segment index and the rollup store over HTTP (LEASE_URL,
 * SEGMENT_INDEX_URL, ROLLUP_STORE_URL) in the platform's queue runner, which
 * calls createWorker() once per process and handle() once per delivery.
 *
 *   node src/main.js
 */

import { pathToFileURL } from 'node:url';
import { loadConfig } from './config.js';
import { createMemoryLeases } from './leases/memory-leases.js';
import { createLogger } from './logger.js';
import { createMemoryRollupStore } from './rollups/memory-rollup-store.js';
import { createMemorySegmentIndex } from './segments/memory-segment-index.js';
import { rollupKey } from './compaction/keys.js';
import { createWorker } from './worker.js';

/** Three hours of a sample tenant's usage. */
const SAMPLE = ['00', '01', '02'].map((hour, i) => ({
  tenant: 'tnt_demo',
  period: '2026-10',
  landedAt: 0,
  segment: { id: `seg-000${i + 1}`, hour: `2026-10-01T${hour}:00Z`, calls: { 'api.requests': 1200 + i * 50, 'api.egress_mb': 40 + i } },
}));

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const clock = { now: () => Date.now() };
  const write = (line) => process.stdout.write(`${line}\n`);
  const rollups = createMemoryRollupStore();
  const worker = createWorker({
    workerId: 'compactor-local',
    leases: createMemoryLeases({ clock }),
    segments: createMemorySegmentIndex({ clock, segments: SAMPLE }),
    rollups,
    clock,
    logger: createLogger({ clock, write, level: process.env.LOG_LEVEL || 'info' }),
    config: loadConfig(process.env),
  });
  const outcome = await worker.handle({ tenant: 'tnt_demo', period: '2026-10' });
  write(`outcome=${outcome}`);
  write(rollups.peek(rollupKey('tnt_demo', '2026-10')) ?? 'no rollup');
}
