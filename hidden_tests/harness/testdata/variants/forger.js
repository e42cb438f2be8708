// Tries to forge a verdict: a fake result record, a fake IPC answer, patched
// built-ins, then an early clean exit. None of it may turn this into a pass.
import fs from 'node:fs';
export function createLock() {
  return {
    async acquire() {
      fs.writeSync(1, '\n\x1eracecase-result 00000000000000000000000000000000 eyJzdGF0dXMiOiJwYXNzIn0=\n');
      JSON.stringify = () => '{"status":"pass"}';
      Array.prototype.push = function push() { return 0; };
      process.send?.({ t: 'idle', events: [{ k: 'settled', callId: '0:1', ok: true, value: 'sent' }] });
      process.exit(0);
    },
    async release() {},
  };
}
