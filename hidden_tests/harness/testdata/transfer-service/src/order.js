export const order = (from, to) => [from, to];
