// Runs the repository's own tests (what `npm test` runs: `node --test test/`) and
// turns them into results v3. Learners can edit these tests, so nothing here is
// trusted for a verdict that matters; it is the reproduction check.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const reporter = fileURLToPath(new URL('./visible-reporter.mjs', import.meta.url));
const MARK = '\x1ercv ';
const OUTPUT_CHARS = 500;

/**
 * Runs `node --test test/` in `repoDir`.
 * @param {{ repoDir: string, outputLimitBytes: number, nodePath?: string }} options
 * @returns {Promise<object>} results v3 with an optional run-level `verdict`
 */
export function runVisible({ repoDir, outputLimitBytes }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test', `--test-reporter=${reporter}`, 'test/'], {
      cwd: repoDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', NODE_ENV: 'test' },
    });
    const tests = [];
    const outputByFile = new Map();
    let console = '';
    let bytes = 0;
    let overLimit = false;
    let pending = '';
    const take = (chunk) => {
      bytes += chunk.length;
      if (bytes > outputLimitBytes && !overLimit) {
        overLimit = true;
        child.kill('SIGKILL');
      }
    };
    child.stdout.on('data', (chunk) => {
      take(chunk);
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        if (!line.startsWith(MARK)) { console = (console + line + '\n').slice(-4000); continue; }
        const item = JSON.parse(line.slice(MARK.length));
        if (item.kind === 'output') {
          outputByFile.set(item.file, ((outputByFile.get(item.file) ?? '') + item.text).slice(-OUTPUT_CHARS));
          console = (console + item.text).slice(-4000);
        } else {
          tests.push(item);
        }
      }
    });
    child.stderr.on('data', (chunk) => { take(chunk); console = (console + chunk.toString('utf8')).slice(-4000); });
    child.on('close', () => {
      if (overLimit) {
        resolve({ version: 3, status: 'fail', verdict: 'output-limit', message: `the tests printed more than ${outputLimitBytes} bytes`, tests: [], output: console });
        return;
      }
      resolve(summarise(repoDir, tests, outputByFile, console));
    });
  });
}

/** Shows paths relative to the repository, as the learner knows them. */
function relative(repoDir, text) {
  return text.split(`file://${repoDir}/`).join('').split(`${repoDir}/`).join('');
}

/** Finds "file:line" and "SomeError: message" in the output of a file that failed to load. */
function loadError(output) {
  const lines = output.split('\n');
  const index = lines.findIndex((line) => /^[A-Za-z]*Error\b.*: /.test(line) || /^[A-Za-z]*Error: /.test(line));
  if (index < 0) return undefined;
  const where = lines.slice(0, index).reverse().find((line) => /^\S+\.[cm]?js:\d+$/.test(line));
  return where ? `${lines[index]} (${where})` : lines[index];
}

function summarise(repoDir, tests, outputByFile, fullOutput) {
  const console = relative(repoDir, fullOutput);
  const results = tests.filter((t) => t.status !== 'skip').map((t) => ({
    name: relative(repoDir, t.name),
    status: t.status,
    message: relative(repoDir, t.message),
    output: t.status === 'fail' ? relative(repoDir, outputByFile.get(t.file) ?? '').slice(-OUTPUT_CHARS) : '',
  }));
  const loadFailures = tests.filter((t) => t.status === 'fail' && t.failureType === 'testCodeFailure' && t.nesting === 0 && t.file && t.name.endsWith(t.file.split('/').pop()));
  if (results.length === 0) {
    return { version: 3, status: 'error', message: `no test ran${console ? `: ${console.trim().slice(-OUTPUT_CHARS)}` : ''}`, tests: [], output: console };
  }
  if (loadFailures.length > 0 && results.every((t) => t.status === 'fail') && loadFailures.length === results.length) {
    const cause = loadError(relative(repoDir, outputByFile.get(loadFailures[0].file) ?? console)) ?? results[0].message;
    return { version: 3, status: 'error', message: cause, tests: results, output: console };
  }
  return { version: 3, status: results.every((t) => t.status === 'pass') ? 'pass' : 'fail', tests: results, output: console };
}
