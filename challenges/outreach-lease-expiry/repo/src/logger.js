/**
 * One log line per event, as key=value pairs after the timestamp and level:
 *
 *   2026-04-14T09:00:03.412Z level=info worker=outreach-0 shard=shard-14 claim=taken lease=30m
 *
 * These lines are what the log panels and the warehouse's outreach_sent_log
 * are built from, so keep field names stable: a dashboard query reads them.
 *
 * @typedef {Record<string, string | number | boolean | null | undefined>} Fields
 *
 * @typedef {object} Logger
 * @property {(fields: Fields) => void} debug
 * @property {(fields: Fields) => void} info
 * @property {(fields: Fields) => void} warn
 * @property {(fields: Fields) => void} error
 * @property {(fields: Fields) => Logger} with returns a logger that adds `fields` to every line
 */

const LEVELS = Object.freeze({ debug: 10, info: 20, warn: 30, error: 40 });

/**
 * Creates a logger writing formatted lines to `write`.
 *
 * @param {object} options
 * @param {import('./clock.js').Clock} options.clock stamps each line
 * @param {(line: string) => void} options.write receives each finished line
 * @param {keyof typeof LEVELS} [options.level] lowest level written
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
        if (value !== undefined) parts.push(`${key}=${quote(value)}`);
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

/**
 * Drops every line. The default wherever a logger is optional.
 * @type {Logger}
 */
export const nullLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
  with() { return nullLogger; },
});

function quote(value) {
  const text = String(value);
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
