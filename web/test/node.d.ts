// The few Node.js test APIs the unit tests use (no @types/node needed).
declare module 'node:test' {
  export function test(name: string, fn: () => void | Promise<void>): void;
}
declare module 'node:assert/strict' {
  const assert: {
    equal(actual: unknown, expected: unknown, message?: string): void;
    deepEqual(actual: unknown, expected: unknown, message?: string): void;
    ok(value: unknown, message?: string): void;
    rejects(promise: Promise<unknown>, check: (err: unknown) => boolean): Promise<void>;
  };
  export default assert;
}
