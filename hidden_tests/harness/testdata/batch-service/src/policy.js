export const FENCED = true;
export const RENEW = 'checked';
