import { redisServerAvailable } from '../test/start-redis-server.js';

/** Tests skip Redis only outside CI; under CI=true a missing binary must fail the run. */
export function skipRedisTests(): boolean {
  if (redisServerAvailable()) return false;
  if (process.env.CI === 'true') return false;
  console.warn(
    'redis-server is not installed: skipping the Redis cache tests (they run under CI=true)',
  );
  return true;
}
