// The coffees on sale and the orders the scenarios place, with what the
// storefront sends for each.

/** Bags loaded for each SKU when its sale opens: the initial `stock:<sku>`. */
export const STOCK = {
  'FH-LOT7-GESHA-250': 1, // the last bag of the incident
  'FH-LOT9-SIDRA-250': 2, // the last two bags
  'FH-LOT8-BOURBON-250': 2, // a declined card among the buyers
  'FH-HOUSE-ESPRESSO-1KG': 40, // plenty
  'FH-LOT5-PACAMARA-250': 2, // a charge the PSP fails among the buyers
  'FH-LOT3-CATURRA-250': 1, // the cache fails a reservation among the buyers of the last bag
  'FH-LOT4-TYPICA-250': 1, // a two-bag order races a one-bag order for the last bag
  'FH-LOT6-GEISHA-250': 1, // a declined card's bag comes back while two others want it
  'FH-LOT1-MARAGO-250': 1, // the cache fails a lone checkout's deletes (a lock's release, if it takes one)
  'FH-LOT2-MOKKA-250': 2, // the cache fails a declined card's give-back while another buyer wants a bag
  'FH-LOT10-JAVA-250': 3, // a declined card's two-bag order
  'FH-LOT11-ICATU-250': 1, // the cache fails a reservation's write after its read went through
  'FH-LOT12-MUNDO-250': 2, // a buyer races a declined card and then another buyer for the last two bags
};

/**
 * Every order a scenario places: which coffee, how many bags (1 unless said),
 * whether the bank refuses the card, whether the PSP fails the order's first
 * charge call (an error that charged nothing, as the fault model allows),
 * whether the cache fails its first read and first reservation write, or
 * only its first reservation write, and whether it fails its first give-back
 * (a write after the charge).
 */
export const ORDERS = {
  'FH-2603-48861': { sku: 'FH-LOT7-GESHA-250' },
  'FH-2603-48863': { sku: 'FH-LOT7-GESHA-250' },
  'FH-2603-50112': { sku: 'FH-LOT9-SIDRA-250' },
  'FH-2603-50114': { sku: 'FH-LOT9-SIDRA-250' },
  'FH-2603-50117': { sku: 'FH-LOT9-SIDRA-250' },
  'FH-2603-48870': { sku: 'FH-LOT8-BOURBON-250', declined: true },
  'FH-2603-48872': { sku: 'FH-LOT8-BOURBON-250' },
  'FH-2603-48402': { sku: 'FH-HOUSE-ESPRESSO-1KG' },
  'FH-2603-48405': { sku: 'FH-HOUSE-ESPRESSO-1KG' },
  'FH-2603-48880': { sku: 'FH-LOT5-PACAMARA-250', pspFails: true },
  'FH-2603-48882': { sku: 'FH-LOT5-PACAMARA-250' },
  'FH-2603-48890': { sku: 'FH-LOT3-CATURRA-250', cacheFails: true },
  'FH-2603-48891': { sku: 'FH-LOT3-CATURRA-250' },
  'FH-2603-51020': { sku: 'FH-LOT4-TYPICA-250', quantity: 2 },
  'FH-2603-51022': { sku: 'FH-LOT4-TYPICA-250' },
  'FH-2603-51030': { sku: 'FH-LOT6-GEISHA-250', declined: true },
  'FH-2603-51031': { sku: 'FH-LOT6-GEISHA-250' },
  'FH-2603-51033': { sku: 'FH-LOT6-GEISHA-250' },
  'FH-2603-48895': { sku: 'FH-LOT1-MARAGO-250', cacheFails: true },
  'FH-2603-51040': { sku: 'FH-LOT2-MOKKA-250', declined: true, giveBackFails: true },
  'FH-2603-51043': { sku: 'FH-LOT2-MOKKA-250' },
  'FH-2603-51050': { sku: 'FH-LOT10-JAVA-250', quantity: 2, declined: true },
  'FH-2603-51060': { sku: 'FH-LOT11-ICATU-250', cacheWriteFails: true },
  'FH-2603-51061': { sku: 'FH-LOT11-ICATU-250' },
  'FH-2603-51070': { sku: 'FH-LOT12-MUNDO-250', declined: true },
  'FH-2603-51071': { sku: 'FH-LOT12-MUNDO-250' },
  'FH-2603-51073': { sku: 'FH-LOT12-MUNDO-250' },
};

/** The cache key of a SKU's stock counter. */
export const stockKey = (sku) => `stock:${sku}`;
/** The coffee an order buys. */
export const skuOf = (order) => ORDERS[order]?.sku;
/** The bags an order asks for. */
export const bagsOf = (order) => ORDERS[order]?.quantity ?? 1;

/** The cache contents when a scenario's sale opens. */
export function opened(...skus) {
  return Object.fromEntries(skus.map((sku) => [stockKey(sku), String(STOCK[sku])]));
}

/** The order behind a job, as the storefront sends it to POST /checkouts. */
export function checkoutRequest(orderId) {
  const order = ORDERS[orderId];
  const tail = orderId.slice(-5);
  return {
    orderId,
    customerId: `cus_${tail}`,
    sku: order.sku,
    quantity: bagsOf(orderId),
    amountMinor: 2400 * bagsOf(orderId),
    currency: 'EUR',
    paymentMethod: order.declined ? 'pm_card_declined' : `pm_${tail}`,
  };
}
