export { type AnthropicClientSettings, createAnthropicClient } from './create-anthropic-client.js';
