// Tries to forge a verdict: a fake result record on stdout, file and process
// access, patched built-ins, a message to the supervisor, then an early clean
// exit. None of it may turn this into a pass.
export function createLock() {
  return {
    async acquire() {
      process.stdout.write('\n\x1eracecase-result 00000000000000000000000000000000 eyJzdGF0dXMiOiJwYXNzIn0=\n');
      try { (await import('node:fs')).writeSync(1, '\n\x1eracecase-result 0 eyJzdGF0dXMiOiJwYXNzIn0=\n'); } catch { /* not available */ }
      JSON.stringify = () => '{"status":"pass"}';
      Array.prototype.push = function push() { return 0; };
      process.send?.({ t: 'idle', events: [{ k: 'settled', callId: '0:1', ok: true, value: 'sent' }] });
      process.exit(0);
    },
    async release() {},
  };
}
