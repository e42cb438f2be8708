/**
 * Structured logging: one line per event, `key=value` pairs after a timestamp
 * and a level, in the order the fields were given.
 *
 *   2026-04-22T19:04:11.214Z level=info pod=ledger-5d8f7-kx2lq transfer=trf_01JS8M3Q7V msg=posted
 *
 * Values with spaces, quotes or '=' are written as JSON strings.
 *
 * @typedef {Record<string, string | number | boolean | null | undefined>} Fields
 * @typedef {object} Logger
 * @property {(fields: Fields) => void} debug
 * @property {(fields: Fields) => void} info
 * @property {(fields: Fields) => void} warn
 * @property {(fields: Fields) => void} error
 * @property {(fields: Fields) => Logger} with returns a logger that adds `fields` to every line
 */

const LEVELS = Object.freeze({ debug: 10, info: 20, warn: 30, error: 40 });

/**
 * @param {object} options
 * @param {import('./clock.js').Clock} options.clock timestamps
 * @param {(line: string) => void} options.write receives each finished line
 * @param {keyof typeof LEVELS} [options.level] lowest level written (default info)
 * @returns {Logger}
 */
export function createLogger({ clock, write, level = 'info' }) {
  const threshold = LEVELS[level];
  if (threshold === undefined) throw new RangeError(`unknown log level ${JSON.stringify(level)}`);

  const build = (bound) => {
    const emit = (lvl) => (fields) => {
      if (LEVELS[lvl] < threshold) return;
      const parts = [new Date(clock.now()).toISOString(), `level=${lvl}`];
      for (const [key, value] of Object.entries({ ...bound, ...fields })) {
        if (value !== undefined) parts.push(`${key}=${format(value)}`);
      }
      write(parts.join(' '));
    };
    return {
      debug: emit('debug'),
      info: emit('info'),
      warn: emit('warn'),
      error: emit('error'),
      with: (more) => build({ ...bound, ...more }),
    };
  };
  return build({});
}

/** Drops every line. The default wherever a logger is optional. @type {Logger} */
export const quietLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
  with() { return quietLogger; },
});

function format(value) {
  const text = String(value);
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
