/**
 * Structured key=value logging, one line per event:
 *
 *   2026-03-14T13:27:01.410Z level=info worker=blue job=job-7 lock=checking
 *
 * Fields are printed in the order they were given, after the logger's own
 * bound fields (see child()). Values containing spaces, quotes or '=' are quoted.
 *
 * @typedef {Record<string, string | number | boolean | null | undefined>} Fields
 *
 * @typedef {object} Logger
 * @property {(fields: Fields) => void} debug
 * @property {(fields: Fields) => void} info
 * @property {(fields: Fields) => void} warn
 * @property {(fields: Fields) => void} error
 * @property {(fields: Fields) => Logger} child returns a logger that adds `fields` to every line
 */

const LEVELS = Object.freeze({ debug: 10, info: 20, warn: 30, error: 40 });

/**
 * Creates a logger that formats lines and hands them to `write`.
 *
 * @param {object} options
 * @param {import('./clock.js').Clock} options.clock source of the timestamp
 * @param {(line: string) => void} options.write where finished lines go (no trailing newline)
 * @param {keyof typeof LEVELS} [options.level] lowest level that is written
 * @param {Fields} [options.fields] fields bound to every line
 * @returns {Logger}
 */
export function createLogger({ clock, write, level = 'info', fields = {} }) {
  const threshold = LEVELS[level];
  if (threshold === undefined) throw new RangeError(`unknown log level ${JSON.stringify(level)}`);

  const emit = (lvl, bound, extra) => {
    if (LEVELS[lvl] < threshold) return;
    const parts = [new Date(clock.now()).toISOString(), `level=${lvl}`];
    for (const [key, value] of Object.entries({ ...bound, ...extra })) {
      if (value === undefined) continue;
      parts.push(`${key}=${formatValue(value)}`);
    }
    write(parts.join(' '));
  };

  const make = (bound) => ({
    debug: (extra) => emit('debug', bound, extra),
    info: (extra) => emit('info', bound, extra),
    warn: (extra) => emit('warn', bound, extra),
    error: (extra) => emit('error', bound, extra),
    child: (more) => make({ ...bound, ...more }),
  });
  return make(fields);
}

/**
 * A logger that drops everything. The default wherever a logger is optional.
 * @type {Logger}
 */
export const silentLogger = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
  child() { return silentLogger; },
});

/**
 * Binds `fields` to any object with debug/info/warn/error methods, whether or
 * not it has child(). Lets callers pass in a minimal logger of their own.
 *
 * @param {Partial<Logger>} logger
 * @param {Fields} fields
 * @returns {Logger}
 */
export function bindLogger(logger, fields) {
  if (typeof logger.child === 'function') return logger.child(fields);
  const call = (lvl) => (extra) => logger[lvl]?.({ ...fields, ...extra });
  return {
    debug: call('debug'),
    info: call('info'),
    warn: call('warn'),
    error: call('error'),
    child: (more) => bindLogger(logger, { ...fields, ...more }),
  };
}

function formatValue(value) {
  const text = String(value);
  return text === '' || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}
