import {
  ATTRIBUTE_NAMES,
  assertConfigOrSettings,
  type CallDeadline,
  type CompactionConfig,
  type CompactionTelemetry,
  type ContinuationDistiller,
  callWithDeadline,
  cutWithNote,
  disclosureNotes,
  EVENT_NAMES,
  METRIC_NAMES,
  noopTelemetry,
  type ResultProcessor,
  resolveConfig,
  SeamDeadlineError,
  SPAN_NAMES,
  type StepRecord,
  startCallDeadline,
  truncateUtf8,
  utf8ByteLength,
} from '@compaction/core';
import { createHeadPreviewProcessor } from './create-head-preview-processor.js';
import type { DigestCaps } from './digest-settings.js';
import { DEFAULT_DIGEST_MAX_DEPTH } from './digest-settings.js';
import { DigestStoppedError } from './digest-stopped-error.js';
import { digestText } from './digest-text.js';
import type { ValueDigest } from './digest-value.js';
import {
  type FailedOperationEvidence,
  type FailedOperationInputPolicy,
  projectFailedOperationEvidence,
} from './project-failed-operation-evidence.js';

/** The part of a resolved configuration (`loadConfig().config`) the planning section reads. */
export type PlanningSectionConfig = Pick<
  CompactionConfig,
  'distill' | 'continuation' | 'failedOperationView'
>;

// The settings a `config` replaces; giving both would leave one of them silently unused.
const KNOB_SETTINGS = [
  'maxTotalBytes',
  'nonJsonFloorBytes',
  'maxEscalations',
  'digestArraySample',
  'digestScalarMax',
  'digestMaxKeys',
  'failedOperationViewEnabled',
  'failedOperationMaxInputBytes',
  'failedOperationMaxStepBytes',
  'failedOperationMaxPromptBytes',
  'deadlineMs',
  'env',
] as const;

/** Settings of `createPlanningSectionRenderer`. Each unset number comes from the environment, then the default. */
export interface PlanningSectionSettings {
  /**
   * A configuration already resolved, as `createCompaction` passes it: its `continuation`,
   * `failedOperationView` and `distill` knobs are used as they are, not resolved again. The
   * knob settings below (`maxTotalBytes` to `failedOperationMaxPromptBytes`, `deadlineMs` and
   * `env`) must then be left unset. Default none: they are resolved once, here.
   */
  config?: PlanningSectionConfig;
  /**
   * Soft byte target of the whole section: it drives eviction of older successful steps; failed
   * steps, the newest success and the closing markers may take the section past it. Default
   * 196608. `COMPACTION_CONTINUATION_RESULT_MAX_TOTAL_CHARS`.
   */
  maxTotalBytes?: number;
  /** Size of the floor preview of a non-JSON result, in bytes. Default 10000. `COMPACTION_CONTINUATION_RESULT_MAX_CHARS`. */
  nonJsonFloorBytes?: number;
  /**
   * Newest non-JSON steps that may be summarised by `distiller` instead of showing the floor
   * preview; 0 disables. Default 8. `COMPACTION_CONTINUATION_MAX_ESCALATIONS`. Escalation also
   * needs `COMPACTION_RESULT_DISTILL_ENABLED` (default true) and a `distiller`.
   */
  maxEscalations?: number;
  /** Head sample of arrays in digests. Default 3. `COMPACTION_CONTINUATION_DIGEST_ARRAY_SAMPLE`. */
  digestArraySample?: number;
  /** Longest inline string in digests, in characters. Default 200. `COMPACTION_CONTINUATION_DIGEST_SCALAR_MAX`. */
  digestScalarMax?: number;
  /** Keys kept per object in digests. Default 50. `COMPACTION_CONTINUATION_DIGEST_MAX_KEYS`. */
  digestMaxKeys?: number;
  /** Nesting depth kept in digests. Default 64. Option only. */
  digestMaxDepth?: number;
  /** Show failed-operation evidence. Default true. `COMPACTION_FAILED_OPERATION_VIEW_ENABLED`. */
  failedOperationViewEnabled?: boolean;
  /** Per input value of a failed attempt, in rendered bytes. Default 4096. `COMPACTION_FAILED_OPERATION_MAX_INPUT_BYTES`. */
  failedOperationMaxInputBytes?: number;
  /**
   * Per failed step, in rendered bytes; the section further limits each view to
   * `min(this, nonJsonFloorBytes, floor(maxTotalBytes / (failed + 1)))`. Default 16384.
   * `COMPACTION_FAILED_OPERATION_MAX_STEP_BYTES`.
   */
  failedOperationMaxStepBytes?: number;
  /** All failed-operation views of the section, in rendered bytes; newest failures are served first. Default 32768. `COMPACTION_FAILED_OPERATION_MAX_PROMPT_BYTES`. */
  failedOperationMaxPromptBytes?: number;
  /** Which inputs of failed attempts may be shown. Default: all. */
  inputPolicy?: FailedOperationInputPolicy;
  /**
   * Produces the floor preview of a non-JSON result. Default: a head cut with a disclosure
   * note. The orchestration and the CLI pass `@compaction/trimmer`'s `createStructuralTrimmer()`.
   */
  floor?: ResultProcessor;
  /** Summarises escalated non-JSON steps. Default none (no escalation). */
  distiller?: ContinuationDistiller;
  /**
   * Deadline of each `floor` and `distiller` call in milliseconds; 0 disables. A call that has
   * not settled a second after it (its signal aborts at it) is abandoned: a floor falls back to
   * the head preview, a summary to the floor preview. Default 45000.
   * `COMPACTION_RESULT_DISTILL_DEADLINE`.
   */
  deadlineMs?: number;
  /** Telemetry seam. Default `noopTelemetry`. */
  telemetry?: CompactionTelemetry;
  /**
   * Bound the newest success's digest, which is always shown: when it alone is larger than what
   * the failures leave of the target, its caps (keys, array sample, string length, then depth)
   * are tightened until it fits, and its heading says so. Default true. `false` keeps seed 002
   * §6.3's literal rule (the newest digest is shown whatever its size, so one 500 KB digest can
   * take the section far past its target). Option only.
   */
  boundNewestDigest?: boolean;
  /** Environment to read the `COMPACTION_*` variables from. Default `process.env`, read once by the factory. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Per-call options of `render`. */
export interface PlanningSectionRenderOptions {
  /** Cancels floor and distiller calls; `render` rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The end user's request, passed to the floor and the distiller. */
  userQuery?: string;
  /** Request id for telemetry correlation. */
  requestId?: string;
  /**
   * Polled by the synchronous digest of each JSON step (every 4096 values) and handed to the
   * floor: once it returns true, steps still to render get the floor's cheapest preview. The
   * orchestration sets it from the compaction deadline.
   */
  shouldStop?: () => boolean;
  /**
   * The compaction deadline when the caller derived it (`startCallDeadline`; `createCompaction`
   * does): `signal` and `shouldStop` then already carry it. Without one, `render` derives it
   * from `deadlineMs`, once per call.
   */
  deadline?: CallDeadline;
}

/** How a step appears in the section. */
export type PlanningStepView = 'digest' | 'preview' | 'summary' | 'failed' | 'rejected' | 'evicted';

/** A rendered planning section and how it was filled. */
export interface PlanningSection {
  /** The section text, closing `[showing N of M completed steps]` marker included. */
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  /** True when `bytes` is over the soft target (force-kept steps and markers). */
  overTarget: boolean;
  /** Steps given. */
  stepsTotal: number;
  /** Steps shown. */
  stepsShown: number;
  /** How each step appears, by id, in the order given. */
  views: Array<{ stepId: string; view: PlanningStepView }>;
  /** Successful steps left out for budget, oldest first. Still addressable by id. */
  evictedStepIds: string[];
  /** Non-JSON steps sent to the distiller. */
  escalatedStepIds: string[];
  /** Failed-operation evidence of each failed step, by id. */
  evidence: Record<string, FailedOperationEvidence['status']>;
  /** True when anything was sampled, elided, previewed, summarised or evicted. */
  contentLost: boolean;
}

/** Renders the continuation planning section. */
export interface PlanningSectionRenderer {
  /**
   * Renders `steps` (in the order they completed) into one section: JSON results as digests,
   * other results as floor previews or model summaries, failures as `[FAILED: …]` markers with
   * their evidence, filled newest first toward the soft target.
   */
  render(
    steps: readonly StepRecord[],
    options?: PlanningSectionRenderOptions,
  ): Promise<PlanningSection>;
}

// The share the newest success always gets, however much the force-kept failures take.
const MIN_NEWEST_SHARE_BYTES = 4096;

// The loosest caps tightened one step: halve keys and samples, then string length, then depth.
function tighter(caps: DigestCaps): DigestCaps | undefined {
  if (caps.maxKeys > 1 || caps.arraySample > 1) {
    return {
      ...caps,
      maxKeys: Math.max(1, Math.floor(caps.maxKeys / 2)),
      arraySample: Math.max(1, Math.floor(caps.arraySample / 2)),
      scalarMax: Math.max(16, Math.floor(caps.scalarMax / 2)),
    };
  }
  if (caps.scalarMax > 16)
    return { ...caps, scalarMax: Math.max(16, Math.floor(caps.scalarMax / 2)) };
  if (caps.maxDepth > 2) return { ...caps, maxDepth: Math.max(2, Math.floor(caps.maxDepth / 2)) };
  return undefined;
}

function describeCaps(caps: DigestCaps): string {
  return `keys ${caps.maxKeys}, array sample ${caps.arraySample}, strings ${caps.scalarMax} chars, depth ${caps.maxDepth}`;
}

// The continuation metrics carry seed 002 §10's label.
const MODULE = { [ATTRIBUTE_NAMES.module]: 'orchestration' };

const SEPARATOR = '\n\n';
const SEPARATOR_BYTES = 2;
const MARKER_MESSAGE_BYTES = 512;
const EVICTED_IDS_SHOWN = 20;

const HEADER =
  'Completed steps, oldest first. JSON results are shown as digests: every key is listed, but arrays, ' +
  'wide objects and long strings are sampled, and each "…" entry says what was left out; what is not ' +
  'shown is UNKNOWN, not absent. A plan passes a full value with {{<step-id>.<path>}}, such as ' +
  '{{step-1.data.items[0].id}}.';

// The caller's own cancellation: past the deadline the render goes on with its cheapest views.
function callerSignal(options: PlanningSectionRenderOptions): AbortSignal | undefined {
  return options.deadline ? options.deadline.callerSignal : options.signal;
}

function oneLine(text: string, maxBytes: number): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ').trim();
  if (utf8ByteLength(line) <= maxBytes) return line;
  return `${truncateUtf8(line, maxBytes - 3)}…`;
}

function heading(step: StepRecord, what: string): string {
  const tool = step.toolName ? ` (${oneLine(step.toolName, 128)})` : '';
  return `## ${oneLine(step.id, 256)}${tool}: ${what}`;
}

function errorText(step: StepRecord): string {
  const code = step.error?.code ? oneLine(step.error.code, 128) : 'unknown';
  const message = step.error?.message
    ? `: ${oneLine(step.error.message, MARKER_MESSAGE_BYTES)}`
    : '';
  return `${code}${message}`;
}

function rejectionEntry(step: StepRecord): string {
  return `${heading(step, 'not dispatched')}\n[NOT DISPATCHED: its parameters could not be bound before dispatch (not a tool failure): ${errorText(step)}]`;
}

/** A failed step: its `[FAILED: …]` marker and, when enabled, its evidence line. */
function failureEntry(
  step: StepRecord,
  limits: {
    view: boolean;
    maxInputBytes: number;
    stepLimit: number;
    promptLeft: number;
    maxPromptBytes: number;
    policy: FailedOperationInputPolicy | undefined;
  },
): {
  text: string;
  evidence: FailedOperationEvidence['status'] | undefined;
  /** Bytes of the view JSON, charged to the prompt's evidence cap. */
  viewBytes: number;
  /** Bytes the evidence line adds to the entry, framing included. */
  evidenceLineBytes: number;
} {
  const marker = `${heading(step, 'failed')}\n[FAILED: ${errorText(step)}]`;
  if (!limits.view)
    return { text: marker, evidence: undefined, viewBytes: 0, evidenceLineBytes: 0 };
  const limit = Math.min(limits.stepLimit, limits.promptLeft);
  const view = projectFailedOperationEvidence(step, {
    maxInputBytes: limits.maxInputBytes,
    maxStepBytes: limit,
    policy: limits.policy,
  });
  let line: string;
  let viewBytes = 0;
  switch (view.status) {
    case 'complete':
    case 'partial':
      line = `failed-operation evidence (${view.status}): ${view.json}`;
      viewBytes = view.bytes;
      break;
    case 'unavailable':
      line = 'failed-operation evidence: unavailable (a legacy record without dispatch evidence)';
      break;
    case 'omitted':
      line =
        limit < limits.stepLimit
          ? `failed-operation evidence: omitted (the section's evidence budget of ${limits.maxPromptBytes} bytes is spent)`
          : `failed-operation evidence: omitted (it does not fit the per-step limit of ${limit} bytes)`;
      break;
    case 'not_applicable':
      return { text: marker, evidence: undefined, viewBytes: 0, evidenceLineBytes: 0 };
  }
  return {
    text: `${marker}\n${line}`,
    evidence: view.status,
    viewBytes,
    evidenceLineBytes: 1 + utf8ByteLength(line),
  };
}

function planningConfig(settings: PlanningSectionSettings): PlanningSectionConfig {
  if (assertConfigOrSettings(settings, KNOB_SETTINGS)) return settings.config!;
  return resolveConfig({
    env: settings.env,
    options: {
      distill: { deadlineMs: settings.deadlineMs },
      continuation: {
        maxTotalBytes: settings.maxTotalBytes,
        nonJsonFloorBytes: settings.nonJsonFloorBytes,
        maxEscalations: settings.maxEscalations,
        digestArraySample: settings.digestArraySample,
        digestScalarMax: settings.digestScalarMax,
        digestMaxKeys: settings.digestMaxKeys,
      },
      failedOperationView: {
        enabled: settings.failedOperationViewEnabled,
        maxInputBytes: settings.failedOperationMaxInputBytes,
        maxStepBytes: settings.failedOperationMaxStepBytes,
        maxPromptBytes: settings.failedOperationMaxPromptBytes,
      },
    },
  });
}

/**
 * Creates the renderer of the continuation planning section (seed 002 §6.3–6.4 and the
 * failed-operation evidence of §1). Settings are validated here; a bad value throws a
 * `ConfigError` naming it.
 */
export function createPlanningSectionRenderer(
  settings: PlanningSectionSettings = {},
): PlanningSectionRenderer {
  const config = planningConfig(settings);
  const { continuation, failedOperationView } = config;
  const caps: DigestCaps = {
    arraySample: continuation.digestArraySample,
    scalarMax: continuation.digestScalarMax,
    maxKeys: continuation.digestMaxKeys,
    maxDepth: settings.digestMaxDepth ?? DEFAULT_DIGEST_MAX_DEPTH,
  };
  const floor = settings.floor ?? createHeadPreviewProcessor();
  const fallbackFloor = createHeadPreviewProcessor();
  const telemetry = settings.telemetry ?? noopTelemetry;
  const maxEscalations =
    settings.distiller && config.distill.enabled ? continuation.maxEscalations : 0;
  const { deadlineMs } = config.distill;
  const boundNewest = settings.boundNewestDigest ?? true;

  // The digest, why the text is not JSON, or undefined when the poll stopped it (the floor's
  // preview then stands in, cut short by the same poll).
  function digestOrStop(
    result: string,
    options: PlanningSectionRenderOptions,
    digestCaps: DigestCaps = caps,
  ): ValueDigest | SyntaxError | undefined {
    try {
      return digestText(result, digestCaps, { shouldStop: options.shouldStop });
    } catch (error) {
      if (DigestStoppedError.isInstance(error)) return undefined;
      throw error;
    }
  }

  async function preview(
    step: StepRecord,
    result: string,
    options: PlanningSectionRenderOptions,
  ): Promise<{ text: string; contentLost: boolean }> {
    const context = {
      stepId: step.id,
      toolName: step.toolName,
      stepTask: step.task,
      userQuery: options.userQuery,
      requestId: options.requestId,
      signal: options.signal,
      ...(options.shouldStop ? { shouldStop: options.shouldStop } : {}),
      ...(options.deadline ? { deadline: options.deadline } : {}),
    };
    try {
      const { text, metadata } = await callWithDeadline(
        (signal) => floor.process(result, continuation.nonJsonFloorBytes, { ...context, signal }),
        { seam: 'floor', deadlineMs, signal: options.signal, deadline: options.deadline },
      );
      if (utf8ByteLength(text) <= continuation.nonJsonFloorBytes) {
        return { text, contentLost: metadata.contentLost };
      }
      throw new Error(`the floor returned more than ${continuation.nonJsonFloorBytes} bytes`);
    } catch (error) {
      callerSignal(options)?.throwIfAborted();
      try {
        const { text, metadata } = await fallbackFloor.process(
          result,
          continuation.nonJsonFloorBytes,
          context,
        );
        return { text, contentLost: metadata.contentLost };
      } catch {
        return {
          text: `[preview unavailable: the floor failed (${oneLine(String(error), 200)}) and ${continuation.nonJsonFloorBytes} bytes cannot hold a head cut; the result is UNKNOWN, not absent]`,
          contentLost: true,
        };
      }
    }
  }

  function renderWithin(
    steps: readonly StepRecord[],
    options: PlanningSectionRenderOptions,
  ): Promise<PlanningSection> {
    return telemetry.withSpan(
      SPAN_NAMES.continuationBudget,
      {
        [ATTRIBUTE_NAMES.stepsTotal]: steps.length,
        [ATTRIBUTE_NAMES.requestId]: options.requestId,
      },
      async (span) => {
        const target = continuation.maxTotalBytes;
        const failedCount = steps.filter((step) => step.status === 'failed').length;
        const stepLimit = Math.min(
          failedOperationView.maxStepBytes,
          continuation.nonJsonFloorBytes,
          Math.floor(target / (failedCount + 1)),
        );

        // Fixed entries: failures and rejections are never evicted.
        const texts = new Map<number, string>();
        const views = new Map<number, PlanningStepView>();
        // Null prototype: a step id such as __proto__ is an ordinary key.
        const evidence: Record<string, FailedOperationEvidence['status']> = Object.create(null);
        let promptLeft = failedOperationView.maxPromptBytes;
        let fixedBytes = utf8ByteLength(HEADER);
        let evidenceBytes = 0;
        for (let i = steps.length - 1; i >= 0; i--) {
          const step = steps[i]!;
          if (step.status === 'succeeded') continue;
          if (step.status === 'rejected') {
            texts.set(i, rejectionEntry(step));
            views.set(i, 'rejected');
          } else {
            const entry = failureEntry(step, {
              view: failedOperationView.enabled,
              maxInputBytes: failedOperationView.maxInputBytes,
              stepLimit,
              promptLeft,
              maxPromptBytes: failedOperationView.maxPromptBytes,
              policy: settings.inputPolicy,
            });
            texts.set(i, entry.text);
            views.set(i, 'failed');
            if (entry.evidence) evidence[step.id] = entry.evidence;
            promptLeft -= entry.viewBytes;
            evidenceBytes += entry.evidenceLineBytes;
          }
          fixedBytes += SEPARATOR_BYTES + utf8ByteLength(texts.get(i)!);
        }

        const successes: number[] = [];
        for (let i = 0; i < steps.length; i++) {
          if (steps[i]!.status === 'succeeded') successes.push(i);
        }
        let lossy = false;
        // Non-JSON steps whose floor preview had to leave something out: escalation candidates.
        const cutPreviews = new Map<number, string>();

        // The newest success is always shown; its digest is bounded by what the fixed entries
        // leave of the target (at least a small floor), its caps tightened until it fits.
        const newestShare = Math.max(
          target - fixedBytes - SEPARATOR_BYTES,
          Math.min(target, MIN_NEWEST_SHARE_BYTES),
        );
        // Undefined when the poll stopped a digest: the floor's preview then stands in.
        const tightenedDigest = (
          step: StepRecord,
          result: string,
          share: number,
        ): string | undefined => {
          lossy = true;
          let tight = caps;
          for (;;) {
            const next = tighter(tight);
            if (!next) break;
            tight = next;
            const digest = digestOrStop(result, options, tight) as ValueDigest | undefined;
            if (!digest) return undefined;
            const text = `${heading(step, `succeeded, JSON digest with tightened caps (${describeCaps(tight)}) to fit ${share} bytes`)}\n${digest.text}`;
            if (utf8ByteLength(text) <= share) return text;
          }
          // Even the tightest caps leave too much (deep or wide beyond sampling): the head of the
          // tightest digest, cut with a note, keeps the section bounded.
          const digest = digestOrStop(result, options, tight) as ValueDigest | undefined;
          if (!digest) return undefined;
          const head = `${heading(step, `succeeded, JSON digest with tightened caps (${describeCaps(tight)}), cut to fit ${share} bytes`)}\n`;
          const cut = cutWithNote(digest.text, Math.max(0, share - utf8ByteLength(head)), (kept) =>
            disclosureNotes.trimmedBytes({
              originalBytes: utf8ByteLength(digest.text),
              keptBytes: kept,
              where: 'planning-section digest',
            }),
          );
          return `${head}${cut ? cut.text : ''}`;
        };

        const renderSuccess = async (i: number, newest: boolean): Promise<string> => {
          const step = steps[i]!;
          const result = step.result ?? '';
          const digest = digestOrStop(result, options);
          if (!(digest instanceof SyntaxError) && digest !== undefined) {
            if (digest.contentLost) lossy = true;
            views.set(i, 'digest');
            const what = 'succeeded, JSON digest';
            const text = `${heading(step, what)}\n${digest.text}`;
            if (!newest || !boundNewest || utf8ByteLength(text) <= newestShare) return text;
            const tightened = tightenedDigest(step, result, newestShare);
            if (tightened !== undefined) return tightened;
          }
          const floorView = await preview(step, result, options);
          if (floorView.contentLost) {
            lossy = true;
            cutPreviews.set(i, floorView.text);
          }
          views.set(i, 'preview');
          return `${heading(step, 'succeeded, text preview')}\n${floorView.text}`;
        };

        // Greedy recency fill; the same fill without the evidence views is reported so a
        // dashboard can see which successes the failure views displaced.
        let used = fixedBytes;
        let usedWithout = fixedBytes - evidenceBytes;
        let keeping = true;
        let keepingWithout = true;
        const kept = new Set<number>();
        const keptWithout: string[] = [];
        for (let k = successes.length - 1; k >= 0 && (keeping || keepingWithout); k--) {
          const i = successes[k]!;
          callerSignal(options)?.throwIfAborted();
          const newest = k === successes.length - 1;
          const text = await renderSuccess(i, newest);
          const bytes = SEPARATOR_BYTES + utf8ByteLength(text);
          if (keeping && (newest || used + bytes <= target)) {
            kept.add(i);
            texts.set(i, text);
            used += bytes;
          } else keeping = false;
          if (keepingWithout && (newest || usedWithout + bytes <= target)) {
            keptWithout.push(steps[i]!.id);
            usedWithout += bytes;
          } else keepingWithout = false;
        }

        // Escalation: the newest shown non-JSON steps whose preview was cut. A summary is at
        // most the floor size, like the preview it replaces, so the fill above still holds.
        const escalate = [...kept]
          .filter((i) => cutPreviews.has(i))
          .sort((a, b) => b - a)
          .slice(0, maxEscalations);
        if (escalate.length > 0) {
          telemetry.count(METRIC_NAMES.continuationEscalations, escalate.length, MODULE);
          const settled = await Promise.allSettled(
            escalate.map(async (i) => {
              const step = steps[i]!;
              const summary = await callWithDeadline(
                (signal) =>
                  settings.distiller!.distill({
                    stepId: step.id,
                    result: step.result ?? '',
                    preview: cutPreviews.get(i)!,
                    maxBytes: continuation.nonJsonFloorBytes,
                    userQuery: options.userQuery,
                    stepTask: step.task,
                    signal,
                    ...(options.deadline ? { deadline: options.deadline } : {}),
                  }),
                {
                  seam: 'continuationDistiller',
                  deadlineMs,
                  signal: options.signal,
                  deadline: options.deadline,
                },
              );
              if (
                typeof summary === 'string' &&
                summary.trim() !== '' &&
                utf8ByteLength(summary) <= continuation.nonJsonFloorBytes
              ) {
                views.set(i, 'summary');
                texts.set(
                  i,
                  `${heading(step, 'succeeded, text summarised by a model (a lossy summary; the full text stays addressable)')}\n${summary}`,
                );
              }
            }),
          );
          callerSignal(options)?.throwIfAborted();
          for (const outcome of settled) {
            if (outcome.status === 'rejected') span.recordError(outcome.reason);
          }
        }

        const evicted: string[] = [];
        const parts: string[] = [HEADER];
        const stepViews: PlanningSection['views'] = [];
        for (let i = 0; i < steps.length; i++) {
          const step = steps[i]!;
          if (step.status === 'succeeded' && !kept.has(i)) {
            evicted.push(step.id);
            stepViews.push({ stepId: step.id, view: 'evicted' });
            continue;
          }
          parts.push(texts.get(i)!);
          stepViews.push({ stepId: step.id, view: views.get(i)! });
        }
        const shown = steps.length - evicted.length;
        if (evicted.length > 0) {
          const listed = evicted.slice(0, EVICTED_IDS_SHOWN).map((id) => oneLine(id, 256));
          const more =
            evicted.length > EVICTED_IDS_SHOWN
              ? `, and ${evicted.length - EVICTED_IDS_SHOWN} more`
              : '';
          parts.push(
            `Older successful steps left out for space (their results are UNKNOWN here, not absent, and still addressable by id): ${listed.join(', ')}${more}`,
          );
        }
        parts.push(`[showing ${shown} of ${steps.length} completed steps]`);
        const text = parts.join(SEPARATOR);
        const bytes = utf8ByteLength(text);

        const escalatedStepIds = escalate.map((i) => steps[i]!.id);
        span.setAttributes({
          [ATTRIBUTE_NAMES.stepsShown]: shown,
          [ATTRIBUTE_NAMES.escalations]: escalate.length,
          [ATTRIBUTE_NAMES.outputBytes]: bytes,
        });
        if (evidenceBytes > 0) {
          span.addEvent(EVENT_NAMES.continuationRetention, {
            [ATTRIBUTE_NAMES.retainedWithProjection]: [...kept].map((i) => steps[i]!.id),
            [ATTRIBUTE_NAMES.retainedWithoutProjection]: keptWithout,
          });
        }
        telemetry.record(METRIC_NAMES.continuationSectionBytes, bytes, MODULE);
        telemetry.record(METRIC_NAMES.continuationStepsShown, shown, MODULE);
        telemetry.record(METRIC_NAMES.continuationStepsEvicted, evicted.length, MODULE);

        return {
          text,
          bytes,
          overTarget: bytes > target,
          stepsTotal: steps.length,
          stepsShown: shown,
          views: stepViews,
          evictedStepIds: evicted,
          escalatedStepIds,
          evidence,
          contentLost:
            lossy ||
            evicted.length > 0 ||
            Object.values(evidence).some((status) => status === 'partial' || status === 'omitted'),
        };
      },
    );
  }

  return {
    async render(steps, given = {}) {
      given.signal?.throwIfAborted();
      // The deadline of this render, derived once unless the caller's options carry it.
      const within = startCallDeadline(given, {
        deadlineMs,
        reason: () => new SeamDeadlineError({ seam: 'planningSection', deadlineMs }),
      });
      try {
        return await renderWithin(steps, within.context);
      } finally {
        within.release();
      }
    },
  };
}
