export const order = (from, to) => (from < to ? [from, to] : [to, from]);
