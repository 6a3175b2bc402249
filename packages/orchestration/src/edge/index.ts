// The storage-free entry point: the synthesis processor, with no Node.js built-in behind it, for
// edge runtimes and browsers. Artifact storage, transcripts and the model-call log are Node-only
// and live in the root entry point.
export {
  createSynthesisProcessor,
  type SynthesisProcessorSettings,
} from '../create-synthesis-processor.js';
