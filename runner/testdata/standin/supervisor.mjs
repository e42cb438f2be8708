// Stand-in supervisor for the runner's integration tests, used until the real
// one in hidden_tests/harness/ exists. It follows PROTOCOL.md only as far as
// the runner needs: read the payload (which names the suite) from stdin, write the workspace to
// /work/repo, run the suite, kill every other process, print the record, exit 0.
//   visible: `node --test` in /work/repo, reported as one test.
//   hidden:  secret suite.mjs, imported from memory; its default export takes
//            the repo directory and returns the tests array.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// The handshake with the watchdog (PROTOCOL.md): announce the payload on fd 3,
// wait for the answer, close fd 3; then read the payload.
const first = Buffer.alloc(1 << 16);
const n = fs.readSync(0, first);
fs.writeSync(3, '!');
fs.readSync(3, Buffer.alloc(1));
fs.closeSync(3);
const input = JSON.parse(Buffer.concat([first.subarray(0, n), fs.readFileSync(0)]).toString('utf8'));
const suite = input.suite;
const repo = '/work/repo';
for (const [name, b64] of Object.entries(input.files)) {
  const file = path.join(repo, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.from(b64, 'base64'));
}

function nodeTest() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--test'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    const relay = (fd) => (chunk) => {
      fs.writeSync(fd, chunk);
      tail = (tail + chunk.toString()).slice(-2000);
    };
    child.stdout.on('data', relay(1));
    child.stderr.on('data', relay(2));
    child.on('error', (err) => resolve({ name: 'node --test', status: 'error', message: String(err), output: '' }));
    child.on('close', (code, signal) => resolve({
      name: 'node --test',
      status: code === 0 ? 'pass' : 'fail',
      message: code === 0 ? '' : `node --test exited with ${signal ?? code}`,
      output: tail,
    }));
  });
}

let tests;
if (suite === 'hidden') {
  const mod = await import('data:text/javascript;base64,' + input.secret['suite.mjs']);
  tests = await mod.default(repo);
} else {
  tests = [await nodeTest()];
}
try {
  process.kill(-1, 'SIGKILL');
} catch {
  // nothing else to kill
}
const status = tests.every((t) => t.status === 'pass') ? 'pass' : 'fail';
const record = Buffer.from(JSON.stringify({ version: 3, status, tests })).toString('base64');
fs.writeSync(1, `\x1eracecase-result ${input.nonce} ${record}\n`);
process.exit(0);
