/**
 * JSON-lines logging, the format the log pipeline indexes:
 *
 *   {"ts":"2026-05-08T19:14:05.523Z","level":"info","instance":"api-0","event":"capture.begin",...}
 *
 * Every line has ts, level and event; the rest are the fields bound with
 * child() followed by the fields of the call, in that order. Undefined fields
 * are left out.
 *
 * @typedef {Record<string, unknown>} Fields
 *
 * @typedef {object} Logger
 * @property {(event: string, fields?: Fields) => void} debug
 * @property {(event: string, fields?: Fields) => void} info
 * @property {(event: string, fields?: Fields) => void} warn
 * @property {(event: string, fields?: Fields) => void} error
 * @property {(fields: Fields) => Logger} child a logger that adds `fields` to every line
 */

const LEVELS = Object.freeze({ debug: 10, info: 20, warn: 30, error: 40 });

/**
 * @param {object} options
 * @param {import('./clock.js').Clock} options.clock timestamps come from here
 * @param {(line: string) => void} options.write receives each finished line
 * @param {keyof typeof LEVELS} [options.level] lowest level written (default info)
 * @returns {Logger}
 */
export function createLogger({ clock, write, level = 'info' }) {
  const threshold = LEVELS[level];
  if (threshold === undefined) throw new RangeError(`unknown log level ${JSON.stringify(level)}`);

  const make = (bound) => {
    const emit = (lvl) => (event, fields = {}) => {
      if (LEVELS[lvl] < threshold) return;
      const line = { ts: new Date(clock.now()).toISOString(), level: lvl, ...bound, event, ...fields };
      write(JSON.stringify(line, (_, value) => (value === undefined ? undefined : value)));
    };
    return {
      debug: emit('debug'),
      info: emit('info'),
      warn: emit('warn'),
      error: emit('error'),
      child: (more) => make({ ...bound, ...more }),
    };
  };
  return make({});
}

/** Drops everything; the default wherever a logger is optional. @type {Logger} */
export const silentLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() { return silentLogger; },
});
