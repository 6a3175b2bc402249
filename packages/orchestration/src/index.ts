export {
  allocateSynthesisBudgets,
  budgetsFromContextWindow,
  type ContextWindowBudgetSettings,
  type SynthesisBudgetRequest,
  type SynthesisBudgetSettings,
} from './allocate-synthesis-budgets.js';
export {
  assembleSynthesisPrompt,
  type SynthesisAssembly,
  type SynthesisAssemblyInput,
  type SynthesisSection,
} from './assemble-synthesis-prompt.js';
export { boundByDeadline, type DeadlineSettings } from './bound-by-deadline.js';
export {
  buildDistillationProcessor,
  type DistillationProcessorInput,
} from './build-distillation-processor.js';
export { byteCutFloor } from './byte-cut-floor.js';
export {
  type AgentInputProcessorSettings,
  createAgentInputProcessor,
} from './create-agent-input-processor.js';
export {
  type ArtifactMode,
  type ArtifactModeSettings,
  createArtifactMode,
} from './create-artifact-mode.js';
export {
  type Compaction,
  type CompactionCallOptions,
  type CompactionDependencies,
  type CreateCompactionSettings,
  createCompaction,
} from './create-compaction.js';
export { createResultArchive } from './create-result-archive.js';
export { createSynthesisArtifacts, type SynthesisArtifacts } from './create-synthesis-artifacts.js';
export {
  createSynthesisProcessor,
  type SynthesisProcessorSettings,
} from './create-synthesis-processor.js';
export {
  type ConversationToolOutput,
  createToolResultHelper,
  type ToolResultContent,
  type ToolResultHelper,
  type ToolResultHelperSettings,
} from './create-tool-result-helper.js';
export { type GuardSettings, guardResultProcessor } from './guard-result-processor.js';
