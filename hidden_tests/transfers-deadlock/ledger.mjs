// The ledger of the transfers-deadlock scenarios: the wallets, their opening
// balances and the transfers, by id.

// The people in the scenarios and their opening balances, in cents.
const MAYA = 'wal-104217';
const MAYA_SAVINGS = 'sav-104217';
const JONAS = 'wal-220391';
const CHEN = 'wal-511093';
const PRIYA = 'wal-318840';
const TOMAS = 'wal-402266';

/** How the messages name the wallets of the scenarios that pair them up. */
export const WHO = { [MAYA]: 'Maya', [JONAS]: 'Jonas', [CHEN]: 'Chen', [PRIYA]: 'Priya', [TOMAS]: 'Tomas' };

export const OPENING = {
  [MAYA]: 12_500,
  [MAYA_SAVINGS]: 30_000,
  [JONAS]: 4_000,
  [CHEN]: 20_000,
  [PRIYA]: 9_000,
  [TOMAS]: 1_500,
};

/** Every scenario starts from the same balances. */
export const STORE_AT_START = Object.fromEntries(Object.entries(OPENING).map(([account, cents]) => [`balance:${account}`, String(cents)]));

// The transfers, by id (the delivery's job). Funds suffice in every order, so a
// correct ledger posts every one of them.
export const TRANSFERS = {
  trf_pay1: { from: MAYA, to: JONAS, amountCents: 2_500, reason: 'payment' },
  trf_back1: { from: JONAS, to: MAYA, amountCents: 2_500, reason: 'send_back', sendsBack: 'trf_pay0' },
  trf_pay2: { from: JONAS, to: MAYA, amountCents: 1_800, reason: 'payment' },
  trf_back2: { from: MAYA, to: JONAS, amountCents: 900, reason: 'send_back', sendsBack: 'trf_pay9' },
  trf_save1: { from: MAYA, to: MAYA_SAVINGS, amountCents: 5_000, reason: 'pot_move' },
  trf_unsave1: { from: MAYA_SAVINGS, to: MAYA, amountCents: 2_000, reason: 'pot_move' },
  trf_other1: { from: PRIYA, to: TOMAS, amountCents: 1_200, reason: 'payment' },
  trf_fwd1: { from: JONAS, to: CHEN, amountCents: 3_000, reason: 'payment' },
  // Friends paying Jonas for a group trip.
  trf_trip1: { from: CHEN, to: JONAS, amountCents: 3_500, reason: 'payment' },
  trf_trip2: { from: PRIYA, to: JONAS, amountCents: 3_500, reason: 'payment' },
  trf_trip3: { from: TOMAS, to: JONAS, amountCents: 1_000, reason: 'payment' },
};

// Every two wallets whose owners pay each other (a savings pot only moves money
// to and from its owner's wallet) get a 10.00 EUR payment each way:
// trf_x<i><j> pays from WALLETS[i] to WALLETS[j].
export const WALLETS = Object.keys(WHO);
WALLETS.forEach((from, i) => WALLETS.forEach((to, j) => {
  if (i !== j) TRANSFERS[`trf_x${i}${j}`] = { from, to, amountCents: 1_000, reason: 'payment' };
}));

export const euros = (cents) => `${(cents / 100).toFixed(2)} EUR`;
