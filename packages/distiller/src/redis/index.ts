export {
  createRedisDistillCache,
  type RedisDistillCacheSettings,
  type RedisLike,
} from './create-redis-distill-cache.js';
