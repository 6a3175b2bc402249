export { createOpenAIClient, type OpenAIClientSettings } from './create-openai-client.js';
