// The Redis guard against a real Redis that hangs (SIGSTOP): when the breaker period is over, one
// request probes Redis and the others keep the in-process fallback, so a hung Redis holds up one
// request by one command's budget instead of every request in flight at that moment.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { testRedis, type TestRedis } from '../../test/redis.ts';
import { eventually } from '../../test/eventually.ts';
import { RedisGuard } from './redis-guard.ts';

let redis: TestRedis;
let guard: RedisGuard;
beforeAll(async () => {
  redis = await testRedis({ private: true });
  guard = new RedisGuard(redis.url, { connectTimeoutMs: 500, commandTimeoutMs: 200, breakerMs: 300, name: 'test' });
});
afterAll(async () => {
  redis?.resume?.();
  await guard?.close();
  await redis?.stop();
});

test('a hung Redis: after the breaker period one probe at a time, the rest fall back at once; back to Redis when it answers', async () => {
  expect(
    await guard.run(
      (r) => r.ping(),
      () => 'fallback',
    ),
  ).toBe('PONG');
  redis.pause!();
  try {
    // The first command times out and opens the breaker.
    expect(
      await guard.run(
        (r) => r.ping(),
        () => 'fallback',
      ),
    ).toBe('fallback');
    expect(
      await eventually(
        async () => guard.available(),
        (ok) => ok,
      ),
    ).toBe(true);
    let sent = 0;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        guard.run(
          (r) => {
            sent++;
            return r.ping();
          },
          () => 'fallback',
        ),
      ),
    );
    expect(answers).toEqual(Array(20).fill('fallback'));
    expect(sent).toBe(1);
  } finally {
    redis.resume!();
  }
  // The next probe after the breaker period answers, and Redis is used by everyone again.
  expect(
    await eventually(
      () =>
        guard.run(
          (r) => r.ping(),
          () => 'fallback',
        ),
      (v) => v === 'PONG',
    ),
  ).toBe('PONG');
  const again = await Promise.all(
    Array.from({ length: 5 }, () =>
      guard.run(
        (r) => r.ping(),
        () => 'fallback',
      ),
    ),
  );
  expect(again).toEqual(Array(5).fill('PONG'));
});
