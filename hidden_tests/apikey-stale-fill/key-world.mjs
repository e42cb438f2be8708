// The world of the API-key suite: the key, the console's changes, the keys
// database as a service, and the two properties every scenario is judged by
// (a change holds once it is shown as saved; an unchanged key comes from the
// cache). A second key, which nobody changes, shows whether a change to one
// key leaves the others in the cache.

/** The key every scenario is about, as the keys database holds it at first. */
export const KEY_ID = 'key_7Hq2';
const FIRST_ROW = Object.freeze({
  keyId: KEY_ID, tenant: 'northwind', status: 'active', scopes: ['orders:read', 'orders:write'], version: 3,
  updatedAt: '2026-09-02T10:00:00.000Z',
});

/** A key of another tenant that nobody changes, as the keys database holds it. */
export const OTHER_KEY_ID = 'key_3Vn8';
const OTHER_ROW = Object.freeze({
  keyId: OTHER_KEY_ID, tenant: 'contoso', status: 'active', scopes: ['orders:read', 'orders:write'], version: 7,
  updatedAt: '2026-08-14T09:30:00.000Z',
});

/** The key a request is made with: the other key for jobs named "other-…", else the key every scenario is about. */
export const keyOf = (job) => (job.startsWith('other-') ? OTHER_KEY_ID : KEY_ID);

/** The scope every API request of the scenarios needs. */
export const SCOPE = 'orders:write';

/** The console's changes, by job: what each does to the key. */
export const CHANGES = {
  'revoke-1': { kind: 'revoke' },
  'revoke-2': { kind: 'revoke' },
  'scopes-1': { kind: 'set-scopes', scopes: ['orders:read'] },
  'scopes-2': { kind: 'set-scopes', scopes: ['orders:read', 'orders:write'] },
};

/** What the edge answers for a request with this row (src/auth/authorize.js, restated). */
function decide(row) {
  if (!row || row.status !== 'active') return 401;
  return row.scopes.includes(SCOPE) ? 200 : 403;
}

/** A row in a message: its version and what it says. */
const show = (row) => `version ${row.version} (${row.status}; scopes ${row.scopes.join(' ')})`;

/** The keys database: one table, every committed version kept, every read recorded with the version it saw. */
export function keysDb(latencyMs) {
  return {
    state: () => ({ row: { ...FIRST_ROW }, versions: [{ ...FIRST_ROW }], updates: [], reads: [] }),
    methods: {
      findKey(state, [keyId], call) {
        const row = { [KEY_ID]: state.row, [OTHER_KEY_ID]: OTHER_ROW }[keyId] ?? null;
        state.reads.push({ job: call.job, worker: call.worker, at: call.at, keyId, version: row?.version });
        return structuredClone(row);
      },
      updateKey(state, [keyId, change], call) {
        if (keyId !== KEY_ID) return call.reject(`no API key ${keyId}`);
        const next = {
          ...state.row,
          ...(change?.status === 'revoked' ? { status: 'revoked' } : {}),
          ...(Array.isArray(change?.scopes) ? { scopes: [...change.scopes].sort() } : {}),
          version: state.row.version + 1,
          updatedAt: new Date(call.at).toISOString(),
        };
        state.row = next;
        state.versions.push(next);
        state.updates.push({ job: call.job, version: next.version });
        return structuredClone(next);
      },
    },
    latencyMs,
    label: 'key update',
    writes: ['updateKey'],
    // A query may take effect as soon as its latency allows and answer up to
    // 400 ms later: it may answer the row as it stood before a change
    // committed while it was in flight.
    reads: ['findKey'],
    view: (state) => ({ row: state.row }),
    describe: (method, [keyId], reply) => `${keyId} → ${reply ? show(reply) : 'no row'}`,
  };
}

/** The last step of `operation` for a delivery: its start ('receive') or its answer ('handle'). */
const lastStep = (world, d, operation) => world.trace.findLast((s) => s.operation === operation && s.key === d.job && s.worker === d.worker);

/**
 * Once a change was answered 200, every request that starts afterwards is
 * decided on that change or a later one: its answer is what some version at
 * least as new as the change says.
 */
export const changesHoldOnceSaved = {
  end(world) {
    const { versions, updates } = world.services.state('keysdb');
    const saved = world.deliveries.filter((d) => CHANGES[d.job] && d.acked).map((d) => ({
      job: d.job,
      step: lastStep(world, d, 'handle'),
      version: Math.max(...updates.filter((u) => u.job === d.job).map((u) => u.version)),
    }));
    for (const d of world.deliveries.filter((r) => !CHANGES[r.job] && keyOf(r.job) === KEY_ID && !world.crashed.has(r.worker))) {
      const status = d.outcome?.status;
      if (![200, 401, 403].includes(status)) continue;
      const start = lastStep(world, d, 'receive');
      const before = saved.filter((c) => c.step && start && c.step.step < start.step);
      if (before.length === 0) continue;
      const newest = before.reduce((a, b) => (b.version > a.version ? b : a));
      const allowed = versions.filter((v) => v.version >= newest.version);
      if (allowed.some((v) => decide(v) === status)) continue;
      const as = versions.filter((v) => decide(v) === status).map((v) => v.version);
      world.violate('changesHoldOnceSaved',
        `${d.job} (${d.worker}) started after ${newest.job} was saved, which made the key ${show(allowed[0])}, and was answered ${status}, `
        + `which only version ${as.join(' or ')} of the key gives: it was decided on a row older than the saved change`,
        [newest.step, start, lastStep(world, d, 'handle')].filter(Boolean));
      return;
    }
  },
};

/**
 * A request whose job ends in "-again" comes after its key was cached, and
 * that key did not change since: it reads no row, even when a process died
 * looking the key up more than `boundMs` before, or another key changed.
 */
export const unchangedKeyFromCache = (boundMs) => ({
  end(world) {
    const read = world.services.state('keysdb').reads.find((r) => r.job.endsWith('-again'));
    if (!read) return;
    const query = world.trace.find((s) => s.operation === 'findKey' && s.worker === read.worker && s.at >= read.at);
    const death = world.trace.find((s) => s.operation === 'crash' && s.at < read.at);
    const why = death
      ? ` ${death.worker} died in the middle of a lookup at ${death.at} ms, ${read.at - death.at} ms before: the README lets a process `
        + `that died looking a key up keep it out of the cache for ${boundMs / 1000} s at most, so whatever it left behind `
        + '(a marker, a lock, a half-written entry) must not keep the lookups after that from filling the cache'
      : '';
    world.violate('unchangedKeyFromCache',
      `${read.job} (${read.worker}) queried the keys database at ${read.at} ms although ${read.keyId} had been looked up before and had `
      + `not changed${read.keyId === KEY_ID ? '' : ` (only ${KEY_ID} had)`}: it should have been answered from the cache.${why}`,
      [death, query].filter(Boolean));
  },
});
