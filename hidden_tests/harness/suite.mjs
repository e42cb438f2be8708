// Checks a hidden suite's shape before anything runs, and fills in limits.

/** Limits applied when a suite does not set its own. */
const DEFAULT_LIMITS = Object.freeze({
  maxLatencyMs: 1000,
  maxDelays: 2,
  horizonMs: 300_000,
  maxSteps: 3000,
  maxSchedules: 2000,
  maxSchedulesAfterFailure: 100,
  maxCallsPerDelivery: 100,
  stepTimeoutMs: 3000,
});

/**
 * Throws a descriptive error when the suite is malformed; sets `suite.limits`.
 * @param {object} suite
 * @param {Record<string, object>} properties known property names
 */
export function validateSuite(suite, properties) {
  const fail = (message) => { throw new Error(`hidden suite: ${message}`); };
  const subject = suite?.subject;
  if (!subject || typeof subject.module !== 'string' || typeof subject.factory !== 'string'
    || typeof subject.method !== 'string' || typeof subject.message !== 'function'
    || typeof subject.acked !== 'function') {
    fail('subject needs module, factory, method, message() and acked()');
  }
  if (!Array.isArray(suite.effects) || suite.effects.length === 0) fail('effects must be a non-empty list');
  for (const effect of suite.effects) {
    if (typeof effect?.target !== 'string' || typeof effect?.method !== 'string') fail('each effect needs target and method');
    if (['store', 'locks'].includes(effect.target)) fail(`${effect.target} is built in; it cannot be an effect`);
    const latency = effect.latencyMs;
    if (latency !== undefined && !(Array.isArray(latency) && latency.length === 2 && latency.every((n) => Number.isFinite(n) && n >= 0))) {
      fail(`effect ${effect.target}.${effect.method}: latencyMs must be [min, max] in ms`);
    }
  }
  for (const [name, property] of Object.entries(suite.properties ?? {})) {
    if (typeof property?.end !== 'function' && typeof property?.onStore !== 'function') {
      fail(`property ${name} needs an end() or onStore() function`);
    }
  }
  try {
    new RegExp(suite.claimKeys);
  } catch {
    fail('claimKeys must be a regular expression source, e.g. "^lock:"');
  }
  if (typeof suite.claimKeys !== 'string') fail('claimKeys must be a regular expression source, e.g. "^lock:"');
  if (!Array.isArray(suite.scenarios) || suite.scenarios.length === 0) fail('scenarios must be a non-empty list');
  const names = new Set();
  for (const scenario of suite.scenarios) {
    if (!Array.isArray(scenario.deliveries) || scenario.deliveries.length === 0) {
      fail(`scenario "${scenario.name}" has no deliveries`);
    }
    const barrier = scenario.barrier;
    if (barrier && barrier !== true && !suite.effects.some((e) => e.target === barrier.target && e.method === barrier.method)) {
      fail(`scenario "${scenario.name}": the barrier must name an effect`);
    }
    for (const test of scenario.tests ?? []) {
      if (!properties[test.property]) fail(`test "${test.name}" names unknown property ${test.property}`);
      if (names.has(test.name)) fail(`test name "${test.name}" is used twice`);
      names.add(test.name);
    }
  }
  suite.limits = { ...DEFAULT_LIMITS, ...suite.limits };
  return suite;
}
