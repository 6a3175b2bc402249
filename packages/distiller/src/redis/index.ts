export {
  type ConnectedRedisDistillCache,
  type ConnectRedisDistillCacheSettings,
  connectRedisDistillCache,
} from './connect-redis-distill-cache.js';
export {
  createRedisDistillCache,
  type RedisDistillCacheSettings,
  type RedisLike,
} from './create-redis-distill-cache.js';
