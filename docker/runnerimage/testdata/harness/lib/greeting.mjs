export const greeting = 'hello from the harness';
