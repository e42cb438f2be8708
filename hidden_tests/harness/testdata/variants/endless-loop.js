// Spins forever when asked for the lock.
export function createLock() {
  return { acquire: async () => { for (;;) { /* spin */ } }, release: async () => {} };
}
