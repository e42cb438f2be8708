// Checks a hidden suite before anything runs and prepares it for exploration:
// every field's shape, every name it refers to, every limit (a misspelt one is
// named with its likely intended spelling). Problems come with the field's path
// and a fix, so `racecase lint` can report them like dossier problems.

import { checkPauses } from './pauses.mjs';
import { PROPERTIES } from './properties.mjs';
import { serviceKit } from './service-kit.mjs';
import { Checker, closest, DEFAULT_LIMITS, SuiteError } from './suite-problems.mjs';

const SUITE_FIELDS = ['subject', 'effects', 'services', 'claimKeys', 'limits', 'properties', 'scenarios'];
const SUBJECT_FIELDS = ['module', 'factory', 'method', 'deps', 'message', 'acked'];
const EFFECT_FIELDS = ['target', 'method', 'label', 'key', 'reply', 'fail', 'latencyMs'];
const SERVICE_FIELDS = ['state', 'methods', 'latencyMs', 'label', 'writes', 'reads', 'view', 'describe', 'key', 'leasesOf', 'leaseMethods', 'changesAt', 'touches'];
const SCENARIO_FIELDS = ['name', 'deliveries', 'tests', 'store', 'crash', 'stall', 'pauses', 'redeliver', 'barrier',
  'expect', 'effects', 'services', 'faults', 'limits'];
const FAULT_FIELDS = ['target', 'method', 'fail'];
const CRASH_FIELDS = ['worker', 'after'];
const STALL_FIELDS = ['worker', 'ms', 'after'];
const BUILT_IN_TARGETS = new Set(['store', 'locks']);

/** Freezes an object and everything in it, so that no suite can change what another reads. */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * A suite module's default export: the suite, or a function of the service kit
 * and the dossier's fault model (durations in milliseconds; see SUITES.md) that
 * returns it. faultModel is null when the run was given none.
 */
export function materializeSuite(exported, faultModel = null) {
  return typeof exported === 'function' ? exported({ services: serviceKit, faultModel: deepFreeze(faultModel) }) : exported;
}

/** The fault model's min_poll_interval of each remote that has one, in ms, by remote name. */
function pollIntervalsOf(faultModel) {
  const out = {};
  for (const [name, remote] of Object.entries(faultModel?.remotes ?? {})) {
    if (typeof remote?.minPollIntervalMs === 'number') out[name] = remote.minPollIntervalMs;
  }
  return out;
}

/** Remote names the subject's dependencies declare, with the field of each. */
export function remoteSpecs(deps, field, out = []) {
  if (Array.isArray(deps)) deps.forEach((d, i) => remoteSpecs(d, `${field}[${i}]`, out));
  else if (deps && typeof deps === 'object') {
    if (deps.$ === 'remote') out.push({ spec: deps, field });
    else if (deps.$ === undefined) for (const [k, v] of Object.entries(deps)) remoteSpecs(v, `${field}.${k}`, out);
  }
  return out;
}

function checkSubject(c, suite, targets) {
  const subject = suite.subject;
  if (!subject || typeof subject !== 'object') {
    c.add('subject', 'is missing', 'describe the learner\'s code: { module, factory, method, deps, message, acked }');
    return;
  }
  c.fields(subject, SUBJECT_FIELDS, 'subject');
  for (const key of ['module', 'factory', 'method']) {
    if (typeof subject[key] !== 'string' || subject[key] === '') c.add(`subject.${key}`, 'must be a non-empty string');
  }
  c.fn(subject.message, 'subject.message', 'message(job, attempt, delivery)');
  c.fn(subject.acked, 'subject.acked', 'acked(outcome)');
  for (const { spec, field } of remoteSpecs(subject.deps, 'subject.deps')) {
    if (typeof spec.name !== 'string') c.add(`${field}.name`, 'a remote needs a name');
    else if (!BUILT_IN_TARGETS.has(spec.name) && !targets.has(spec.name)) {
      const near = closest(spec.name, [...BUILT_IN_TARGETS, ...targets]);
      c.add(`${field}.name`, `"${spec.name}" is neither the store, the lock service, a service nor an effect target`,
        near ? `did you mean "${near}"?` : 'declare it under effects or services');
    }
    if (!Array.isArray(spec.methods) || spec.methods.some((m) => typeof m !== 'string')) {
      c.add(`${field}.methods`, 'must list the method names the worker may call');
    }
  }
  for (const [kind, field] of [...Object.entries(subject.deps ?? {})].filter(([, v]) => v && typeof v === 'object' && v.$ !== undefined)
    .map(([k, v]) => [v.$, `subject.deps.${k}`])) {
    if (!['worker', 'clock', 'remote'].includes(kind)) c.add(`${field}.$`, `unknown dependency kind "${kind}"`, 'use worker, clock or remote');
  }
}

function checkEffects(c, effects, where) {
  if (effects === undefined) return;
  if (!Array.isArray(effects)) {
    c.add(where, 'must be a list of effects');
    return;
  }
  effects.forEach((effect, i) => {
    const field = `${where}[${i}]`;
    c.fields(effect, EFFECT_FIELDS, field);
    if (typeof effect?.target !== 'string' || typeof effect?.method !== 'string') c.add(field, 'needs target and method');
    if (BUILT_IN_TARGETS.has(effect?.target)) c.add(`${field}.target`, `${effect.target} is built in; it cannot be an effect`);
    c.range(effect?.latencyMs, `${field}.latencyMs`);
    c.label(effect?.label, `${field}.label`);
    for (const key of ['key', 'reply', 'fail']) if (effect?.[key] !== undefined) c.fn(effect[key], `${field}.${key}`, key);
  });
}

/**
 * Faults of the built-in store and lock service, or of the scenario's stateful
 * services: `{ target, method, fail(args, call) }`.
 * @param {Set<string>} services the names of the services the scenario has
 */
function checkFaults(c, faults, where, services) {
  if (faults === undefined) return;
  if (!Array.isArray(faults)) {
    c.add(where, 'must be a list of faults', 'faults: [{ target: \'store\', method, fail(args, call) }]');
    return;
  }
  faults.forEach((fault, i) => {
    const field = `${where}[${i}]`;
    c.fields(fault, FAULT_FIELDS, field);
    if (!BUILT_IN_TARGETS.has(fault?.target) && !services.has(fault?.target)) {
      c.add(`${field}.target`, 'must be store, locks or one of the scenario\'s services', 'fail an effect with its own fail instead');
    }
    if (typeof fault?.method !== 'string') c.add(`${field}.method`, 'needs the method whose calls may fail');
    c.fn(fault?.fail, `${field}.fail`, 'fail(args, call)');
  });
}

function checkServices(c, services, where) {
  if (services === undefined) return;
  for (const [name, service] of Object.entries(services)) {
    const field = `${where}.${name}`;
    if (BUILT_IN_TARGETS.has(name)) c.add(field, `${name} is built in; it cannot be a service`);
    if (!service || typeof service !== 'object') {
      c.add(field, 'must be a service: { state, methods }');
      continue;
    }
    c.fields(service, SERVICE_FIELDS, field);
    if (service.state !== undefined) c.fn(service.state, `${field}.state`, 'state(scenario)');
    if (service.key !== undefined) c.fn(service.key, `${field}.key`, 'key(method, args)');
    if (service.touches !== undefined) c.fn(service.touches, `${field}.touches`, 'touches(method, args), the parts of the state a call reads or writes');
    if (!service.methods || typeof service.methods !== 'object' || Object.keys(service.methods).length === 0) {
      c.add(`${field}.methods`, 'must name at least one method', 'methods: { get(state, args, call) { … } }');
    } else {
      for (const [method, fn] of Object.entries(service.methods)) c.fn(fn, `${field}.methods.${method}`, 'a service method');
    }
    c.range(service.latencyMs, `${field}.latencyMs`);
    c.label(service.label, `${field}.label`);
    checkWrites(c, service, `${field}.writes`);
    checkReads(c, service, field);
    checkLeaseMethods(c, service, `${field}.leaseMethods`);
  }
}

/** A service's writes: the names of its methods whose calls write, or a function deciding per call. */
function checkWrites(c, service, field) {
  const { writes } = service;
  if (writes === undefined || typeof writes === 'function') return;
  if (!Array.isArray(writes) || writes.some((m) => typeof m !== 'string')) {
    c.add(field, 'must list method names, or be a function (method, args, reply) → whether the call wrote', 'e.g. writes: [\'reserve\']');
    return;
  }
  checkMethodNames(c, service, writes, field);
}

/**
 * A service's reads: method names, with the view of the state they read, the
 * moments their answers change on their own (changesAt), or both.
 */
function checkReads(c, service, field) {
  const { reads, view, changesAt } = service;
  if (reads === undefined) {
    if (view !== undefined) c.add(`${field}.view`, 'is only used by reads', 'add reads: [the methods that read it]');
    if (changesAt !== undefined) c.add(`${field}.changesAt`, 'is only used by reads', 'add reads: [the methods whose answers change then]');
    return;
  }
  if (!Array.isArray(reads) || reads.some((m) => typeof m !== 'string')) {
    c.add(`${field}.reads`, 'must list method names', 'e.g. reads: [\'get\']');
    return;
  }
  checkMethodNames(c, service, reads, `${field}.reads`);
  if (changesAt !== undefined && (!Array.isArray(changesAt) || changesAt.some((t) => !(Number.isInteger(t) && t > 0)))) {
    c.add(`${field}.changesAt`, 'must list moments in whole milliseconds > 0', 'e.g. changesAt: [1000]: a segment lands at 1 s');
  }
  if (view !== undefined || changesAt === undefined) c.fn(view, `${field}.view`, 'view(state), the part of the state its reads see');
}

/** A service's leaseMethods: names of its methods that take or renew a lease it reports with leasesOf. */
function checkLeaseMethods(c, service, field) {
  const { leaseMethods } = service;
  if (leaseMethods === undefined) return;
  if (!Array.isArray(leaseMethods) || leaseMethods.some((m) => typeof m !== 'string')) {
    c.add(field, 'must list method names', 'e.g. leaseMethods: [\'acquire\']');
    return;
  }
  checkMethodNames(c, service, leaseMethods, field);
  if (service.leasesOf === undefined) c.add(field, 'names calls that take leases, but the service reports none', 'add leasesOf(state, worker, now)');
}

/** Every name in `names` is one of the service's methods. */
function checkMethodNames(c, service, names, field) {
  const methods = Object.keys(service.methods ?? {});
  for (const method of names.filter((m) => !methods.includes(m))) {
    const near = closest(method, methods);
    c.add(field, `names "${method}", which is not one of its methods`, near ? `did you mean "${near}"?` : `its methods: ${methods.join(', ')}`);
  }
}

function checkScenario(c, suite, scenario, i, properties, names) {
  const field = `scenarios[${i}]`;
  c.fields(scenario, SCENARIO_FIELDS, field);
  if (typeof scenario.name !== 'string' || scenario.name === '') c.add(`${field}.name`, 'every scenario needs a name');
  if (!Array.isArray(scenario.deliveries) || scenario.deliveries.length === 0) {
    c.add(`${field}.deliveries`, 'has no deliveries', 'add { worker, job, at } entries');
    return;
  }
  const workers = new Set();
  scenario.deliveries.forEach((d, j) => {
    const at = `${field}.deliveries[${j}]`;
    if (typeof d?.worker !== 'string' || typeof d?.job !== 'string') c.add(at, 'needs worker and job names');
    workers.add(d?.worker);
    for (const link of ['after', 'during']) {
      const other = d?.[link];
      if (other !== undefined && !(Number.isInteger(other) && other >= 0 && other < scenario.deliveries.length && other !== j)) {
        c.add(`${at}.${link}`, 'must be the index of another delivery of this scenario');
      }
    }
    if (d?.during !== undefined && (d.after !== undefined || d.at !== undefined)) {
      c.add(`${at}.during`, 'a delivery that arrives during another has no at or after of its own', 'keep during, or at / after');
    }
    if (d?.maxAttempts !== undefined && scenario.redeliver === undefined) {
      c.add(`${at}.maxAttempts`, 'only counts redeliveries, and the scenario has no redeliver', 'add redeliver: { everyMs, maxAttempts } to the scenario');
    }
    c.attempts(d?.maxAttempts, `${at}.maxAttempts`);
    if (d?.during !== undefined && scenario.deliveries[d.during]?.during !== undefined) {
      c.add(`${at}.during`, 'must name a delivery that starts on its own (at or after), not another one that arrives during a third');
    }
  });
  if (scenario.redeliver !== undefined) {
    const { everyMs, maxAttempts, answerWithinMs, afterNoAnswerMs } = scenario.redeliver ?? {};
    c.fields(scenario.redeliver, ['everyMs', 'maxAttempts', 'answerWithinMs', 'afterNoAnswerMs'], `${field}.redeliver`);
    const ms = (value) => Number.isInteger(value) && value >= 0;
    if (!ms(everyMs)) c.add(`${field}.redeliver.everyMs`, 'must be a whole number of milliseconds ≥ 0', 'e.g. everyMs: 5000');
    if (maxAttempts === undefined) c.add(`${field}.redeliver.maxAttempts`, 'must say how many deliveries in all', 'e.g. maxAttempts: 3');
    c.attempts(maxAttempts, `${field}.redeliver.maxAttempts`);
    if (answerWithinMs !== undefined && !(ms(answerWithinMs) && answerWithinMs > 0)) {
      c.add(`${field}.redeliver.answerWithinMs`, 'must be a whole number of milliseconds > 0: how long the caller waits for an answer', 'e.g. answerWithinMs: 2000');
    }
    if (afterNoAnswerMs !== undefined && (answerWithinMs === undefined || !Array.isArray(afterNoAnswerMs) || !afterNoAnswerMs.every(ms))) {
      c.add(`${field}.redeliver.afterNoAnswerMs`, 'must be a list of whole numbers of milliseconds ≥ 0, one wait per retry after an unanswered attempt, beside answerWithinMs',
        'e.g. answerWithinMs: 2000, afterNoAnswerMs: [0, 6000]');
    }
  }
  const worker = (value, at) => {
    if (value !== undefined && !workers.has(value)) c.add(at, `"${value}" handles no delivery of this scenario`, `use one of ${[...workers].join(', ')}`);
  };
  for (const [name, spec, fields] of [['crash', scenario.crash, CRASH_FIELDS], ['stall', scenario.stall, STALL_FIELDS]]) {
    if (spec === undefined) continue;
    c.fields(spec, fields, `${field}.${name}`);
    worker(spec?.worker, `${field}.${name}.worker`);
    if (spec?.after !== undefined && !(Number.isInteger(spec.after) && spec.after >= 1)) {
      c.add(`${field}.${name}.after`, 'must be a whole number ≥ 1: the worker\'s n-th successful write, where it strikes');
    }
  }
  if (scenario.stall !== undefined && !(Number.isInteger(scenario.stall?.ms) && scenario.stall.ms > 0)) {
    c.add(`${field}.stall.ms`, 'must be a whole number of milliseconds > 0');
  }
  checkPauses(c, suite, scenario, field, worker);
  if (!Array.isArray(scenario.tests) || scenario.tests.length === 0) c.add(`${field}.tests`, 'has no tests');
  (scenario.tests ?? []).forEach((test, j) => {
    const at = `${field}.tests[${j}]`;
    if (typeof test?.name !== 'string' || test.name === '') c.add(`${at}.name`, 'every test needs a name');
    else if (names.has(test.name)) c.add(`${at}.name`, `test name "${test.name}" is used twice`, 'give every test its own name');
    names.add(test?.name);
    if (!properties[test?.property]) {
      const near = closest(test?.property, Object.keys(properties));
      c.add(`${at}.property`, `unknown property "${test?.property}"`, near ? `did you mean "${near}"?` : `known: ${Object.keys(properties).join(', ')}`);
    }
  });
  checkEffects(c, scenario.effects, `${field}.effects`);
  checkServices(c, scenario.services, `${field}.services`);
  checkFaults(c, scenario.faults, `${field}.faults`, new Set(Object.keys({ ...suite.services, ...scenario.services })));
  c.limits(scenario.limits, `${field}.limits`);
  const paces = { ...suite.limits, ...scenario.limits }.paces;
  if (Array.isArray(paces)) {
    for (const pace of paces) if (typeof pace === 'string' && pace.startsWith('slow:')) worker(pace.slice('slow:'.length), `${field}.limits.paces`);
  }
  const effects = mergeEffects(suite.effects ?? [], scenario.effects ?? []);
  const barrier = scenario.barrier;
  if (barrier === true && effects.length === 0) c.add(`${field}.barrier`, 'a barrier needs an effect to wait at');
  if (barrier && barrier !== true && !effects.some((e) => e.target === barrier.target && e.method === barrier.method)) {
    c.add(`${field}.barrier`, 'the barrier must name an effect', 'barrier: { target, method } of one of the effects');
  }
}

/** Effects of a scenario: the suite's, each replaced by the scenario's of the same target and method. */
function mergeEffects(suiteEffects, scenarioEffects) {
  const same = (a, b) => a.target === b.target && a.method === b.method;
  return [...suiteEffects.filter((e) => !scenarioEffects.some((s) => same(s, e))), ...scenarioEffects];
}

/**
 * Every problem with a suite; an empty list means it can run.
 * @param {object} suite
 * @returns {SuiteProblem[]}
 */
export function checkSuite(suite) {
  const c = new Checker();
  if (!suite || typeof suite !== 'object') {
    c.add('', 'the default export is not a suite', 'export default { subject, effects, scenarios, … }');
    return c.problems;
  }
  c.fields(suite, SUITE_FIELDS, '');
  checkEffects(c, suite.effects, 'effects');
  checkServices(c, suite.services, 'services');
  const targets = new Set([...(suite.effects ?? []).map((e) => e?.target), ...Object.keys(suite.services ?? {}),
    ...(suite.scenarios ?? []).flatMap((s) => [...(s.effects ?? []).map((e) => e?.target), ...Object.keys(s.services ?? {})])]);
  checkSubject(c, suite, targets);
  if (suite.claimKeys !== undefined) {
    try {
      if (typeof suite.claimKeys !== 'string') throw new TypeError();
      new RegExp(suite.claimKeys);
    } catch {
      c.add('claimKeys', 'must be a regular expression source', 'e.g. claimKeys: \'^lock:\'');
    }
  }
  c.limits(suite.limits, 'limits');
  for (const [name, property] of Object.entries(suite.properties ?? {})) {
    if (typeof property?.end !== 'function' && typeof property?.onStore !== 'function') {
      c.add(`properties.${name}`, 'needs an end() or onStore() function');
    }
  }
  const properties = { ...PROPERTIES, ...suite.properties };
  if (!Array.isArray(suite.scenarios) || suite.scenarios.length === 0) c.add('scenarios', 'must be a non-empty list');
  const names = new Set();
  (suite.scenarios ?? []).forEach((scenario, i) => checkScenario(c, suite, scenario ?? {}, i, properties, names));
  return c.problems;
}

/**
 * Checks a suite and returns it ready to explore: each scenario with its limits
 * (defaults, the suite's, its own), effects and services merged in.
 * @throws {SuiteError} listing every problem
 */
export function prepareSuite(suite, faultModel = null) {
  const problems = checkSuite(suite);
  if (problems.length > 0) throw new SuiteError(problems);
  const pollIntervals = pollIntervalsOf(faultModel);
  const pacing = (suite.scenarios ?? []).findIndex((s) => (s.tests ?? []).some((t) => t.property === 'pacedPolls' && !suite.properties?.pacedPolls));
  if (pacing >= 0 && Object.keys(pollIntervals).length === 0) {
    throw new SuiteError([{ field: `scenarios[${pacing}].tests`, message: 'pacedPolls needs a fault model in which some remote has a min_poll_interval',
      fix: 'state min_poll_interval for the remote in fault_model of dossier.yaml, or remove the test' }]);
  }
  const limits = { ...DEFAULT_LIMITS, ...suite.limits };
  return {
    ...suite,
    pollIntervals,
    limits,
    effects: suite.effects ?? [],
    scenarios: suite.scenarios.map((scenario) => ({
      ...scenario,
      limits: { ...limits, ...scenario.limits },
      effects: mergeEffects(suite.effects ?? [], scenario.effects ?? []),
      services: { ...suite.services, ...scenario.services },
      faults: scenario.faults ?? [],
    })),
  };
}
