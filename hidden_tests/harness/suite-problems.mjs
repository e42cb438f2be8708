// What checking a hidden suite reports, and the collector the checks in
// suite.mjs report through: a problem names the field's path, says what is
// wrong and how to fix it; a misspelt name gets its likely intended spelling.

/** Limits applied when neither the suite nor the scenario sets its own. */
export const DEFAULT_LIMITS = Object.freeze({
  maxLatencyMs: 1000,
  maxDelays: 2,
  paces: 2,
  maxPauses: 1,
  flipDraws: 4,
  horizonMs: 300_000,
  maxSteps: 3000,
  maxSchedules: 2000,
  maxSchedulesAfterFailure: 25,
  maxWork: 8000,
  maxCallsPerDelivery: 100,
  stepTimeoutMs: 3000,
});

/** A problem with a suite: the field's path, what is wrong, and how to fix it. */
export class SuiteProblem {
  /**
   * @param {string} field e.g. "scenarios[1].tests[0].property"
   * @param {string} message
   * @param {string} [fix]
   */
  constructor(field, message, fix = '') {
    this.field = field;
    this.message = message;
    this.fix = fix;
  }
}

/** Raised when a suite cannot run; `problems` lists everything wrong with it. */
export class SuiteError extends Error {
  /** @param {SuiteProblem[]} problems */
  constructor(problems) {
    super(`hidden suite: ${problems[0].field ? `${problems[0].field}: ` : ''}${problems[0].message}`);
    this.problems = problems;
  }
}

/** The closest of `names` to `name`, when it is close enough to be a likely typo. */
export function closest(name, names) {
  const distance = (a, b) => {
    const d = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let previous = d[0];
      d[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const current = d[j];
        d[j] = Math.min(d[j] + 1, d[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
        previous = current;
      }
    }
    return d[b.length];
  };
  let best = '';
  let bestDistance = Infinity;
  for (const candidate of names) {
    const d = distance(String(name).toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return bestDistance <= Math.max(2, Math.floor(String(name).length / 4)) ? best : '';
}

/** Collects problems while a suite is checked. */
export class Checker {
  problems = [];

  add(field, message, fix) {
    this.problems.push(new SuiteProblem(field, message, fix));
  }

  /** Reports keys of `object` that are not among `known`. */
  fields(object, known, where) {
    for (const key of Object.keys(object ?? {})) {
      if (known.includes(key)) continue;
      const near = closest(key, known);
      this.add(`${where}${where ? '.' : ''}${key}`, `unknown field "${key}"`, near ? `did you mean "${near}"?` : `known fields: ${known.join(', ')}`);
    }
  }

  fn(value, field, what) {
    if (typeof value !== 'function') this.add(field, `${what} must be a function`, `write ${field.split('.').pop()}: (…) => …`);
  }

  range(value, field) {
    if (value === undefined) return;
    if (!(Array.isArray(value) && value.length === 2 && value.every((n) => Number.isFinite(n) && n >= 0) && value[0] <= value[1])) {
      this.add(field, 'must be [min, max] in milliseconds, min ≤ max', 'e.g. latencyMs: [0, 1000]');
    }
  }

  /** A label names one counted call in messages ("job-7 got 2 notifications"). */
  label(value, field) {
    if (value !== undefined && !(typeof value === 'string' && value.trim() !== '')) {
      this.add(field, 'must be a non-empty string', 'e.g. label: \'notification\'');
    }
  }

  /** A count of attempts: a whole number ≥ 1. */
  attempts(value, field) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) {
      this.add(field, 'must be a whole number ≥ 1', 'e.g. maxAttempts: 3');
    }
  }

  limits(limits, field) {
    if (limits === undefined) return;
    if (typeof limits !== 'object' || limits === null) {
      this.add(field, 'must be an object of limits');
      return;
    }
    this.fields(limits, Object.keys(DEFAULT_LIMITS), field);
    for (const [key, value] of Object.entries(limits)) {
      if (key === 'paces') this.#paces(value, `${field}.${key}`);
      else if (Object.hasOwn(DEFAULT_LIMITS, key) && !(Number.isInteger(value) && value >= 0)) {
        this.add(`${field}.${key}`, 'must be a whole number ≥ 0', `e.g. ${key}: ${DEFAULT_LIMITS[key]}`);
      }
    }
  }

  /** `paces`: 1, 2 or 3, or the list of paces to explore, each once. */
  #paces(value, field) {
    if (Array.isArray(value)) {
      const bad = value.find((pace) => !(pace === 'quick' || pace === 'slow' || (typeof pace === 'string' && /^slow:./.test(pace))));
      if (value.length === 0 || bad !== undefined || new Set(value).size !== value.length) {
        this.add(field, "must list paces, each once: 'quick', 'slow' or 'slow:<worker>'", "e.g. paces: ['quick', 'slow:blue']");
      }
    } else if (value !== 1 && value !== 2 && value !== 3) {
      this.add(field, 'must be 1 (every call at its quickest), 2 (then every call at its slowest), 3 (then each worker alone at its slowest) or a list of those paces', 'e.g. paces: 2');
    }
  }
}
