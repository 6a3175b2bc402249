export {
  type FakeUpstream,
  type RecordedRequest,
  type ScriptedAnswer,
  startFakeUpstream,
} from './fake-upstream.js';
