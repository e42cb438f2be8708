import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, patiently } from '../src/lib/api';

const problem = (status: number) => new ApiError({ type: 'about:blank', title: 'T', status, detail: 'D' } as never);

/** A read that fails with each of errors in turn, then answers 'ok'; it counts its calls. */
function flaky(...errors: unknown[]) {
  const read = async () => {
    read.calls += 1;
    if (errors.length > 0) throw errors.shift();
    return 'ok';
  };
  read.calls = 0;
  return read;
}

test('a read dropped, refused as too busy or failed by the server is tried again', async () => {
  const read = flaky(new TypeError('Failed to fetch'), problem(429), problem(503));
  assert.equal(await patiently(read), 'ok');
  assert.equal(read.calls, 4);
});

test('an answer that will not change is not tried again', async () => {
  const read = flaky(problem(404));
  await assert.rejects(patiently(read), (err) => err instanceof ApiError && err.status === 404);
  assert.equal(read.calls, 1);
});

test('a read that keeps failing fails after its last try', async () => {
  const read = flaky(...Array.from({ length: 10 }, () => problem(503)));
  await assert.rejects(patiently(read), (err) => err instanceof ApiError && err.status === 503);
  assert.equal(read.calls, 4);
});
