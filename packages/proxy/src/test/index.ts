export {
  type FakeToolCall,
  type FakeUpstream,
  fakeToolCallAnswer,
  type RecordedRequest,
  type ScriptedAnswer,
  startFakeUpstream,
} from './fake-upstream.js';
