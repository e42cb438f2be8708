/**
 * An in-memory lock service with the interface of the production one, for
 * tests and local runs. Locks are exclusive and not reentrant; `acquire`
 * waits until the lock is free. Where the production service would wait for
 * ever, this one notices a cycle of workers waiting for each other and
 * rejects with an error that names it.
 *
 * @typedef {object} LockClient one worker's handle on the lock service
 * @property {(key: string) => Promise<true>} acquire waits until the lock is free, then takes it
 * @property {(key: string) => Promise<boolean>} tryAcquire takes the lock if it is free; false at once otherwise
 * @property {(key: string) => Promise<boolean>} release gives back a lock the worker holds
 */

/**
 * Creates a lock service. `roundTrip`, when given, is awaited before each call
 * reaches the service, as a network round trip would be.
 *
 * @param {{ roundTrip?: () => Promise<void> }} [options]
 * @returns {{ client(owner: string): LockClient }}
 */
export function createLockService({ roundTrip = async () => {} } = {}) {
  /** @type {Map<string, string>} lock → the worker holding it */
  const holders = new Map();
  /** @type {Map<string, { key: string, take: () => void }>} worker → the lock it waits for */
  const waiting = new Map();

  /** The wait-for chain from `key` back to `owner`, or null when there is no cycle. */
  function cycle(owner, key) {
    const links = [];
    for (let k = key; ;) {
      const holder = holders.get(k);
      if (holder === undefined) return null;
      links.push(`${k} is held by ${holder}`);
      if (holder === owner) return links;
      const next = waiting.get(holder);
      if (!next) return null;
      links.push(`which waits for ${next.key}`);
      k = next.key;
    }
  }

  return {
    client(owner) {
      return {
        async acquire(key) {
          await roundTrip();
          if (!holders.has(key)) {
            holders.set(key, owner);
            return true;
          }
          const found = cycle(owner, key);
          if (found) throw new Error(`deadlock: ${owner} waits for ${key}; ${found.join(', ')}`);
          return new Promise((resolve) => {
            waiting.set(owner, { key, take: () => resolve(true) });
          });
        },
        async tryAcquire(key) {
          await roundTrip();
          if (holders.has(key)) return false;
          holders.set(key, owner);
          return true;
        },
        async release(key) {
          await roundTrip();
          if (holders.get(key) !== owner) return false;
          holders.delete(key);
          const next = [...waiting.entries()].find(([, w]) => w.key === key);
          if (next) {
            const [waiter, { take }] = next;
            waiting.delete(waiter);
            holders.set(key, waiter);
            take();
          }
          return true;
        },
      };
    },
  };
}
