export {
  type CompactionProxy,
  type CompactionProxySettings,
  createCompactionProxy,
} from './create-compaction-proxy.js';
export { isLoopbackHost } from './is-loopback-host.js';
export type { ProxyConversationStats, ProxyRequestStats } from './proxy-request-stats.js';
