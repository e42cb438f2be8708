// Shared helpers for the harness tests: fixture repositories with one lock variant.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp-dirs.mjs';

const testdata = fileURLToPath(new URL('../testdata/', import.meta.url));

/** Copies the fixture service into a temporary directory with the named lock variant. */
export function repoWithLock(variant) {
  const dir = tempDir(variant);
  fs.cpSync(path.join(testdata, 'lock-service'), dir, { recursive: true });
  fs.copyFileSync(path.join(testdata, 'variants', `${variant}.js`), path.join(dir, 'src/locks/job-lock.js'));
  return dir;
}

/** A fresh copy of the fixture suite (runHidden fills in its limits). */
export async function lockSuite(overrides = {}) {
  const { default: suite } = await import(`../testdata/lock-suite.mjs?copy=${Math.random()}`);
  return { ...suite, limits: { ...suite.limits, ...overrides } };
}

/** The result of the named test. */
export function testNamed(results, name) {
  const test = results.tests.find((t) => t.name === name);
  if (!test) throw new Error(`no result for ${name}: ${JSON.stringify(results)}`);
  return test;
}
