// The parcels and events of the parcel-status suite, and its two properties:
// once a parcel's events are dealt with, the page shows the newest one, and the
// page never goes back to an older event, not even for a moment.

const RETURNED = 'PX-4471-0932';
const RETRIED = 'PX-5520-1187';
const COLLECTED = 'PX-6038-2245';

/** Every Swiftline event of the scenarios, by job (its queue message id). */
export const EVENTS = {
  'evt-7f3a-0006': { parcelId: RETURNED, seq: 6, status: 'in_transit', occurredAt: '2026-11-19T19:02:55Z', location: 'Fernhill warehouse' },
  'evt-7f3a-0007': { parcelId: RETURNED, seq: 7, status: 'in_transit', occurredAt: '2026-11-19T22:31:09Z', location: 'Doncaster hub' },
  'evt-7f3a-0008': { parcelId: RETURNED, seq: 8, status: 'at_depot', occurredAt: '2026-11-20T07:12:44Z', location: 'Leeds depot' },
  'evt-7f3a-0009': { parcelId: RETURNED, seq: 9, status: 'out_for_delivery', occurredAt: '2026-11-20T07:12:44Z', location: 'Leeds depot' },
  'evt-7f3a-0010': { parcelId: RETURNED, seq: 10, status: 'delivered', occurredAt: '2026-11-20T10:41:05Z', location: 'LS6 2QT' },
  'evt-91c2-0003': { parcelId: RETRIED, seq: 3, status: 'out_for_delivery', occurredAt: '2026-11-20T07:03:52Z', location: 'Leeds depot' },
  'evt-91c2-0004': { parcelId: RETRIED, seq: 4, status: 'delivery_attempted', occurredAt: '2026-11-20T13:20:17Z', location: 'LS12 4PA' },
  'evt-91c2-0005': { parcelId: RETRIED, seq: 5, status: 'at_depot', occurredAt: '2026-11-20T17:45:02Z', location: 'Leeds depot' },
  'evt-91c2-0006': { parcelId: RETRIED, seq: 6, status: 'out_for_delivery', occurredAt: '2026-11-21T07:04:18Z', location: 'Leeds depot' },
  // The courier's handheld runs 40 s behind the warehouse's label printer:
  // the parcel was collected after its label was printed, at an earlier second.
  'evt-c40d-0001': { parcelId: COLLECTED, seq: 1, status: 'label_created', occurredAt: '2026-11-21T14:02:10Z', location: 'Fernhill warehouse' },
  'evt-c40d-0002': { parcelId: COLLECTED, seq: 2, status: 'collected', occurredAt: '2026-11-21T14:01:48Z', location: 'Fernhill warehouse' },
};

const keyOf = (parcelId) => `parcel:${parcelId}:status`;
export const PARCEL_OF_KEY = new Map([RETURNED, RETRIED, COLLECTED].map((p) => [keyOf(p), p]));

/** The document a tracker that recorded `job` earlier left in the store: the scenario's starting point. */
export const shownBefore = (job) => ({
  [keyOf(EVENTS[job].parcelId)]: JSON.stringify({ ...EVENTS[job], updatedBy: 'tracker-a' }),
});

/** A stored status document's `seq` and `status`, or why the page could not read it. */
function readDocument(raw) {
  if (raw === null || raw === undefined) return { missing: true };
  try {
    const doc = JSON.parse(raw);
    if (Number.isInteger(doc?.seq) && typeof doc?.status === 'string') return { seq: doc.seq, status: doc.status };
  } catch {
    // unreadable: reported below
  }
  return { unreadable: raw.length > 120 ? `${raw.slice(0, 120)}…` : raw };
}

const describe = (doc) => `event ${doc.seq} (${doc.status})`;

/** The events of a parcel a scenario starts with or delivers, by seq. */
function eventsOf(world, parcelId) {
  const bySeq = new Map();
  for (const job of world.scenario.deliveries.map((d) => d.job)) {
    if (EVENTS[job].parcelId === parcelId) bySeq.set(EVENTS[job].seq, EVENTS[job]);
  }
  const start = readDocument(world.scenario.store?.[keyOf(parcelId)]);
  if (start.seq !== undefined) bySeq.set(start.seq, start);
  return bySeq;
}

/**
 * Once every delivery is done, each parcel's document is one of its real events,
 * with that event's status, and no older than any event a tracker acknowledged
 * (or the document it started from).
 */
export const newestShown = {
  end(world) {
    for (const [key, parcelId] of PARCEL_OF_KEY) {
      const events = eventsOf(world, parcelId);
      if (events.size === 0) continue;
      const doc = readDocument(world.store.entry(key, world.now)?.value);
      const handled = world.deliveries.filter((d) => d.acked && EVENTS[d.job].parcelId === parcelId);
      const start = readDocument(world.scenario.store?.[key]);
      const floor = Math.max(start.seq ?? 0, ...handled.map((d) => EVENTS[d.job].seq));
      const newest = events.get(floor);
      const history = world.trace.filter((s) => s.key === key && s.operation !== 'get');
      if (doc.missing || doc.unreadable !== undefined) {
        world.violate('newestShown', `${key} ${doc.missing ? 'holds nothing' : `holds ${doc.unreadable}, which has no integer seq and status`}, `
          + `so the tracking page shows no status for ${parcelId}; its newest event handled is ${describe(newest)}`, history);
        return;
      }
      const real = events.get(doc.seq);
      if (!real || real.status !== doc.status) {
        world.violate('newestShown', `the page shows ${describe(doc)} for ${parcelId}, but its event ${doc.seq} is ${real ? `${real.status}` : 'not one Swiftline sent'}`, history);
        return;
      }
      if (doc.seq < floor) {
        const by = handled.filter((d) => EVENTS[d.job].seq === floor).map((d) => `${d.worker} (${d.request})`).join(', ');
        world.violate('newestShown', `once every event was dealt with, the page shows ${describe(doc)} for ${parcelId}, `
          + `but ${by ? `${by} handled` : 'the store already held'} its newer ${describe(newest)}`, history);
        return;
      }
    }
  },
};

/** A parcel's document never goes back to an older event, nor away: checked at every store write. */
export const neverBack = {
  onStore(world, op, before, value, step) {
    const key = op.args?.[0];
    if (!PARCEL_OF_KEY.has(key) || before === undefined) return;
    const after = world.store.entry(key, world.now)?.value ?? null;
    if (after === before.value) return;
    const was = readDocument(before.value);
    const now = readDocument(after);
    if (was.seq === undefined) return;
    if (now.missing) {
      world.violate('neverBack', `${op.worker} removed ${key}: the page went from ${describe(was)} to no status at all for ${PARCEL_OF_KEY.get(key)}`, [step]);
    } else if (now.seq === undefined || now.seq < was.seq) {
      world.violate('neverBack', `${op.worker} replaced ${describe(was)} with ${now.seq === undefined ? 'an unreadable document' : describe(now)}: `
        + `the page showed ${PARCEL_OF_KEY.get(key)} going back to an older event`, [step]);
    }
  },
};
