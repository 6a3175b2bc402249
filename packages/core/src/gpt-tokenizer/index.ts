export {
  createGptTokenCounter,
  type GptTokenCounterSettings,
  type GptTokenizerModule,
} from './create-gpt-token-counter.js';
