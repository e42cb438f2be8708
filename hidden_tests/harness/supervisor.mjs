// The supervisor: `node supervisor.mjs`, started by the watchdog.
//
// Boots (starts the worker processes a hidden run will take, see workers-ahead.mjs,
// then loads the rest of the harness while they boot), then waits for the run's
// payload on stdin (see PROTOCOL.md), writes the learner's files, runs the suite the
// payload names, kills every other process, and prints the result record tagged with
// the nonce as its very last act. Learner code never runs in this process.

import fs from 'node:fs';
import path from 'node:path';
import { startWorkersAhead } from './workers-ahead.mjs';

const REPO_DIR = '/work/repo';
const RECORD = '\x1eracecase-result';
/** The largest payload read from stdin: the runner never sends more than /work can hold, base64-encoded. */
const PAYLOAD_LIMIT_BYTES = 128 << 20;
/** The pipe to the watchdog on which the supervisor announces the payload's arrival. */
const ANNOUNCE_FD = 3;
/** The sign each test status gets in the output: a test not decided (status error) is marked !, not as failed. */
const MARKS = { pass: '✓', fail: '✗' };

// SIGUSR1 would open the inspector; a child with a debugger attached to us could
// forge anything. Handling the signal keeps the inspector closed.
process.on('SIGUSR1', () => {});

/** Writes the learner's files under REPO_DIR, refusing any path that escapes it. */
function writeWorkspace(files) {
  for (const [name, base64] of Object.entries(files ?? {})) {
    const target = path.resolve(REPO_DIR, name);
    if (path.isAbsolute(name) || !target.startsWith(`${REPO_DIR}/`)) {
      throw new Error(`refusing workspace path ${JSON.stringify(name)}`);
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, Buffer.from(base64, 'base64'));
  }
}

/**
 * Tells the watchdog, on fd 3, that the payload is arriving, and waits for its answer:
 * then its budgets run and its start marker is out. Closes fd 3, which nothing
 * started later inherits. Without a watchdog (no fd 3) there is nobody to tell.
 */
function announceStart() {
  try {
    if (!fs.fstatSync(ANNOUNCE_FD).isSocket()) return;
  } catch {
    return;
  }
  fs.writeSync(ANNOUNCE_FD, '!');
  fs.readSync(ANNOUNCE_FD, Buffer.alloc(1));
  fs.closeSync(ANNOUNCE_FD);
}

/** Reads the payload from stdin, refusing one larger than the limit before it is all in memory. */
function readPayload() {
  const chunks = [];
  let total = 0;
  const chunk = Buffer.alloc(1 << 16);
  for (;;) {
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      if (error.code === 'EAGAIN') continue;
      if (error.code === 'EOF') break;
      throw error;
    }
    if (total === 0) announceStart();
    if (n === 0) break;
    total += n;
    if (total > PAYLOAD_LIMIT_BYTES) throw new Error(`the payload is larger than ${PAYLOAD_LIMIT_BYTES} bytes`);
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Imports the hidden suite from memory: it never touches a disk learner code can read. */
async function importSuite(secret) {
  const source = secret?.['suite.mjs'];
  if (!source) throw new Error('the hidden suite is missing from the payload');
  return (await import(`data:text/javascript;base64,${source}`)).default;
}

/** The dossier's fault model from the payload, or null when the run was given none. */
function faultModelOf(secret) {
  const source = secret?.['fault-model.json'];
  return source ? JSON.parse(Buffer.from(source, 'base64').toString('utf8')) : null;
}

/** The names of the only tests to run (`only-tests.json`), or null to run them all. */
function onlyTestsOf(secret) {
  const source = secret?.['only-tests.json'];
  if (!source) return null;
  const names = JSON.parse(Buffer.from(source, 'base64').toString('utf8'));
  if (!Array.isArray(names) || names.length === 0 || !names.every((n) => typeof n === 'string')) {
    throw new Error('only-tests.json must be a non-empty list of test names');
  }
  return names;
}

/** Kills every process this one may signal (never itself or the init process). */
function killEverythingElse() {
  if (!fs.existsSync('/.dockerenv')) return;
  try { process.kill(-1, 'SIGKILL'); } catch { /* nothing left to kill */ }
}

async function main() {
  let payload = {};
  let results;
  // The workers boot while the supervisor loads the rest of the harness and the payload
  // is on its way (in a warm container, long before), unless the container is for the
  // visible check, which needs none. They start first: booting Node.js takes longer
  // than anything the supervisor does before the run can use them.
  fs.mkdirSync(REPO_DIR, { recursive: true });
  const spares = process.argv[2] === 'visible' ? [] : startWorkersAhead(REPO_DIR);
  const [{ runHidden }, { runVisible }] = await Promise.all([import('./hidden.mjs'), import('./visible.mjs')]);
  try {
    // Without a payload there is no nonce either: the runner then finds no result, which is an error.
    payload = readPayload();
    writeWorkspace(payload.files);
    const outputLimitBytes = Number(payload.outputLimitBytes) || 1 << 20;
    const suiteKind = payload.suite;
    if (suiteKind !== 'hidden') spares.splice(0).forEach((spare) => spare.kill());
    if (suiteKind === 'visible') {
      results = await runVisible({ repoDir: REPO_DIR, outputLimitBytes });
    } else if (suiteKind === 'hidden') {
      results = await runHidden({
        suite: await importSuite(payload.secret), faultModel: faultModelOf(payload.secret), only: onlyTestsOf(payload.secret),
        repoDir: REPO_DIR, sandbox: true, outputLimitBytes, spares,
      });
    } else {
      throw new Error(`unknown suite ${JSON.stringify(suiteKind)}`);
    }
  } catch (error) {
    results = { version: 3, status: 'error', message: `the run could not start: ${error.message}`, tests: [], internal: String(error?.stack ?? error) };
  }
  if (results.output) process.stdout.write(results.output.endsWith('\n') ? results.output : `${results.output}\n`);
  delete results.output;
  for (const test of results.tests) {
    process.stdout.write(`${MARKS[test.status] ?? '!'} ${test.name}${test.schedules ? ` (${test.schedules} schedules)` : ''}\n`);
    if (test.status !== 'pass' && test.message) process.stdout.write(`    ${test.message}\n`);
  }
  killEverythingElse();
  const nonce = String(payload?.nonce ?? '');
  const record = Buffer.from(JSON.stringify(results)).toString('base64');
  // stdout is a pipe: a single write of a large record can be partial, so let the
  // stream write all of it before exiting.
  await new Promise((resolve) => { process.stdout.write(`\n${RECORD} ${nonce} ${record}\n`, resolve); });
  process.exit(0);
}

await main();
