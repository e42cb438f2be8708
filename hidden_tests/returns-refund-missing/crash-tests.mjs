// The tests of the returns-refund-missing scenarios where a worker dies: one
// list per way of dying, a name per write it dies after, spelled out so that
// wrong turns can name them (and, for a publish that failed first, how it
// failed).

/**
 * The tests of the scenarios where blue dies right after its first, second,
 * third and fourth write: more writes than an approval and a housekeeping run
 * of one return need, wherever a fix puts them.
 */
export const ORDINALS = ['first', 'second', 'third', 'fourth'];
export const CRASH_TESTS = [
  ['an approval survives a worker dying right after its first write', 'nothing is announced early when a worker dies after its first write',
    'a worker dying after its first write does not cause a second refund', 'the approval is answered after a worker died at its first write'],
  ['an approval survives a worker dying right after its second write', 'nothing is announced early when a worker dies after its second write',
    'a worker dying after its second write does not cause a second refund', 'the approval is answered after a worker died at its second write'],
  ['an approval survives a worker dying right after its third write', 'nothing is announced early when a worker dies after its third write',
    'a worker dying after its third write does not cause a second refund', 'the approval is answered after a worker died at its third write'],
  ['an approval survives a worker dying right after its fourth write', 'nothing is announced early when a worker dies after its fourth write',
    'a worker dying after its fourth write does not cause a second refund', 'the approval is answered after a worker died at its fourth write'],
];

/**
 * The tests of the scenarios where blue runs housekeeping first, then
 * approves, and dies right after its first to fourth write, counted from its
 * housekeeping run: whatever that run took (a relay's lease, say) must not
 * keep green's next run from announcing the approval.
 */
export const CRASH_AFTER_TICK_TESTS = [
  'an approval survives a worker that ran housekeeping first dying right after its first write',
  'an approval survives a worker that ran housekeeping first dying right after its second write',
  'an approval survives a worker that ran housekeeping first dying right after its third write',
  'an approval survives a worker that ran housekeeping first dying right after its fourth write',
];

/**
 * The ways a publish fails without the bus keeping the event, each as the bus
 * client rejects, by the fault model's kind of failure: where a publish fails
 * and a housekeeping run then dies, whatever that run took to announce the
 * event still owed (a relay's lease, say) must not keep the next run from
 * announcing it.
 */
export const UNKEPT_PUBLISH = {
  refused: {
    what: 'is refused',
    error: 'bus unavailable: the broker answered 503 (failing over)',
    tests: [
      ['an approval whose publish is refused survives a housekeeping run dying right after its first write',
        'an approval whose publish is refused is refunded once when a housekeeping run dies right after its first write'],
      ['an approval whose publish is refused survives a housekeeping run dying right after its second write',
        'an approval whose publish is refused is refunded once when a housekeeping run dies right after its second write'],
      ['an approval whose publish is refused survives a housekeeping run dying right after its third write',
        'an approval whose publish is refused is refunded once when a housekeeping run dies right after its third write'],
      ['an approval whose publish is refused survives a housekeeping run dying right after its fourth write',
        'an approval whose publish is refused is refunded once when a housekeeping run dies right after its fourth write'],
    ],
  },
  timeout: {
    what: 'times out unseen',
    error: 'publish timed out after 2000 ms: the broker did not confirm',
    tests: [
      ['an approval whose publish times out unseen survives a housekeeping run dying right after its first write',
        'an approval whose publish times out unseen is refunded once when a housekeeping run dies right after its first write'],
      ['an approval whose publish times out unseen survives a housekeeping run dying right after its second write',
        'an approval whose publish times out unseen is refunded once when a housekeeping run dies right after its second write'],
      ['an approval whose publish times out unseen survives a housekeeping run dying right after its third write',
        'an approval whose publish times out unseen is refunded once when a housekeeping run dies right after its third write'],
      ['an approval whose publish times out unseen survives a housekeeping run dying right after its fourth write',
        'an approval whose publish times out unseen is refunded once when a housekeeping run dies right after its fourth write'],
    ],
  },
};
