// Prints 100 MiB at once, then carries on.
export function createLock() {
  return {
    acquire: async () => { process.stdout.write('x'.repeat(100 << 20)); return 'token'; },
    release: async () => {},
  };
}
