export {
  createProviderServer,
  defaultProviderText,
  type ProviderHandler,
  type ProviderReply,
  type ProviderRequest,
  type ProviderServer,
  type ProviderServerSettings,
  type ProviderWireFormat,
} from './create-provider-server.js';
export {
  type RedisServerProcess,
  redisServerAvailable,
  startRedisServer,
} from './start-redis-server.js';
