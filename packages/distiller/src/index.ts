export { type ChainClientSettings, createChainClient } from './create-chain-client.js';
export { MissingCredentialsError } from './missing-credentials-error.js';
export {
  DEFAULT_MODEL_ALIASES,
  type ModelAlias,
  type ModelAliasTable,
  resolveModelAlias,
} from './model-aliases.js';
export { ModelCallError, type ModelCallErrorKind, toModelCallError } from './model-call-error.js';
