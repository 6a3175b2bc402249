export { formatRunReport } from './format-run-report.js';
export { modelFromEnv } from './model-from-env.js';
export { pnpmCommand } from './pnpm-command.js';
export {
  type DevopsAgentRun,
  type DevopsAgentSettings,
  type PlannedCall,
  runDevopsAgent,
} from './run-devops-agent.js';
