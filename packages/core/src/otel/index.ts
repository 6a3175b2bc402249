export { createOpenTelemetry, type OpenTelemetrySettings } from './create-open-telemetry.js';
