import { InvalidArgumentError } from '../errors.js';
import { disclosureNotes } from '../notes/disclosure-notes.js';
import { utf8ByteLength } from '../utf8.js';
import type { ConversationResult, ConversationStep } from './conversation-result.js';

/** Settings of `fitConversation`. */
export interface FitConversationSettings {
  /** The most the tool-result content of one prompt may cost, in `measure` units. Required. */
  budget: number;
  /**
   * Each step-down leaves at least this much (in `measure` units) free under the budget, or
   * frees all that the rules let go: it frees what the turn went over plus this, so the next
   * step-down (and prompt-prefix break) is at least this much growth away. Default 0.
   */
  clearAtLeast?: number;
  /** The newest results that keep their view (an artifact read excepted). At least 1. Default 1. */
  keepLast?: number;
  /** What a text costs. Default its UTF-8 bytes; pass a token counter's count for tokens. */
  measure?: (text: string) => number;
  /** The unit `budget` is in, as the note names it. Default `bytes`. */
  unit?: 'bytes' | 'tokens';
}

/** One result as the prompt shows it. */
export interface FittedResult {
  step: ConversationStep;
  /** The text for the prompt: the step's text, and on the first stepped-down result the note. */
  text: string;
}

/** What `fitConversation` decided. */
export interface ConversationFit {
  /** One entry per input result, in order. */
  results: FittedResult[];
  /** What the texts cost in all, in `measure` units. */
  total: number;
  /** `total <= budget`. False only when the rules let nothing else step down. */
  withinBudget: boolean;
  /**
   * How many times the conversation crossed its budget while it grew, each time stepping
   * results down (and so changing earlier messages of the prompt): the prefix breaks it cost.
   */
  stepDowns: number;
  /** Results shown as a small view. */
  smallViews: number;
  /** Results shown as a pointer line, in its full or short form. */
  pointers: number;
  /** Of `pointers`, those in the short form. */
  shortPointers: number;
}

/**
 * A result whose full output is at most this many UTF-8 bytes keeps its text: its pointer line
 * would save too little to be worth a lossy step.
 */
export const MIN_STEP_DOWN_BYTES = 1024;

/** The pointer line `result` steps down to (a `[stepped down: …]` note). */
export function pointerLine(result: ConversationResult): string {
  return steppedDownLine(result, true);
}

/**
 * The short form of `result`'s pointer line, or `undefined` when it has none: a stored result
 * drops the SHA-256 (the art_ id resolves to one artifact, whose index record keeps the digest);
 * tool name, call id, size, where it is stored and the digest line stay.
 */
export function shortPointerLine(result: ConversationResult): string | undefined {
  return result.artifactId && result.sha256 ? steppedDownLine(result, false) : undefined;
}

function steppedDownLine(result: ConversationResult, withSha256: boolean): string {
  return disclosureNotes.steppedDown({
    toolName: result.toolName,
    toolCallId: result.toolCallId,
    bytes: result.bytes,
    ...(withSha256 && result.sha256 ? { sha256: result.sha256 } : {}),
    ...(result.artifactId ? { artifactId: result.artifactId } : {}),
    ...(result.artifactId && result.artifactPath ? { path: result.artifactPath } : {}),
    ...(result.digest ? { digest: result.digest } : {}),
  });
}

/** The most the conversation-budget note (with its newline) can cost under `settings`. */
export function noteReserve(settings: FitConversationSettings): number {
  const measure = settings.measure ?? utf8ByteLength;
  const widest = (retrievable: boolean, byFile: boolean) =>
    measure(
      `\n${disclosureNotes.conversationBudget({
        pointers: 999_999_999,
        smallViews: 999_999_999,
        budget: settings.budget,
        unit: settings.unit ?? 'bytes',
        retrievable,
        byFile,
      })}`,
    );
  return Math.max(widest(true, false), widest(true, true), widest(false, false));
}

function invalid(argument: string, message: string): never {
  throw new InvalidArgumentError({ argument, message });
}

function checkResults(results: readonly ConversationResult[]): void {
  if (!Array.isArray(results)) invalid('results', 'results must be an array');
  let turn = 0;
  results.forEach((result, i) => {
    if (typeof result !== 'object' || result === null)
      invalid('results', `results[${i}] is not an object`);
    for (const key of ['toolCallId', 'toolName', 'view'] as const) {
      if (typeof result[key] !== 'string') invalid(key, `results[${i}].${key} must be a string`);
    }
    if (result.smallView !== undefined && typeof result.smallView !== 'string')
      invalid('smallView', `results[${i}].smallView must be a string`);
    if (!Number.isSafeInteger(result.turn) || result.turn < turn)
      invalid('turn', `results[${i}].turn must be an integer, not below the turn before it`);
    if (!Number.isSafeInteger(result.bytes) || result.bytes < 0)
      invalid('bytes', `results[${i}].bytes must be a non-negative integer`);
    turn = result.turn;
  });
}

/**
 * Decides, for the tool results of one prompt, which step each is shown at so that their total
 * stays within `budget` (issue 41; seed 002 §6.3's recency fill applied to a chat).
 *
 * The decision is replayed over the conversation, turn by turn, from nothing: results enter at
 * their view; only when a turn takes the total over the budget do older results step down, and
 * then until `clearAtLeast` is free under the budget. Steps never go back up. So the outcome depends only on the
 * results given (a restarted process decides the same), and between two step-downs every
 * earlier result keeps its exact text, which keeps provider prompt caches warm.
 *
 * At a step-down, in this order, oldest first within each: pointer lines an earlier step-down
 * made take their short form (`shortPointerLine`: a stored result's line without its SHA-256,
 * the densest part of the line in tokens, which a model does not need to read the artifact);
 * artifact reads a later turn has seen go straight to their pointer (never a small view: their
 * text is already what the model asked for); successful results go to their small view; then
 * to their pointer; then failed results likewise. The newest result and the newest `keepLast`
 * never step down, nor does a result of at most `MIN_STEP_DOWN_BYTES`. A step is taken only
 * when it frees something.
 *
 * The first stepped-down result (in prompt order) carries the conversation-budget note, whose
 * cost is reserved while deciding. Throws `InvalidArgumentError` on malformed input.
 */
export function fitConversation(
  results: readonly ConversationResult[],
  settings: FitConversationSettings,
): ConversationFit {
  checkResults(results);
  const { budget } = settings;
  const clearAtLeast = settings.clearAtLeast ?? 0;
  const keepLast = settings.keepLast ?? 1;
  const unit = settings.unit ?? 'bytes';
  if (typeof budget !== 'number' || !Number.isFinite(budget) || budget <= 0)
    invalid('budget', `budget must be a positive number, got ${budget}`);
  if (!Number.isFinite(clearAtLeast) || clearAtLeast < 0)
    invalid('clearAtLeast', `clearAtLeast must be a non-negative number, got ${clearAtLeast}`);
  if (!Number.isSafeInteger(keepLast) || keepLast < 1)
    invalid('keepLast', `keepLast must be an integer of at least 1, got ${keepLast}`);
  const rawMeasure = settings.measure ?? utf8ByteLength;
  const measure = (text: string): number => {
    const cost = rawMeasure(text);
    if (!Number.isFinite(cost) || cost < 0)
      invalid('measure', `measure returned ${cost}, not a non-negative number`);
    return cost;
  };

  const n = results.length;
  const pointers = results.map((result) =>
    result.bytes > MIN_STEP_DOWN_BYTES ? pointerLine(result) : undefined,
  );
  const shortPointers = results.map((result) =>
    result.bytes > MIN_STEP_DOWN_BYTES ? shortPointerLine(result) : undefined,
  );
  const costs = results.map((result, i) => ({
    view: measure(result.view),
    small:
      result.smallView !== undefined && !result.artifactRead
        ? measure(result.smallView)
        : undefined,
    pointer: pointers[i] === undefined ? undefined : measure(pointers[i]!),
    'short-pointer': shortPointers[i] === undefined ? undefined : measure(shortPointers[i]!),
  }));
  const costOf = (i: number, step: ConversationStep): number | undefined => costs[i]![step];

  const steps: ConversationStep[] = [];
  const reserve = noteReserve({ ...settings, measure, unit });
  let sum = 0;
  let smallViews = 0;
  let pointerCount = 0;
  let shortCount = 0;
  let stepDowns = 0;

  const noteText = (): string | undefined => {
    if (smallViews + pointerCount === 0) return undefined;
    const stored = results.filter((result, i) => steps[i] !== 'view' && result.artifactId);
    return disclosureNotes.conversationBudget({
      pointers: pointerCount,
      smallViews,
      budget,
      unit,
      retrievable: stored.length > 0,
      byFile: stored.length > 0 && stored.every((result) => result.artifactPath !== undefined),
    });
  };
  const noteCost = (): number => {
    const note = noteText();
    return note === undefined ? 0 : measure(`\n${note}`);
  };

  /** Moves result `i` to `to` when that frees something; returns what it freed. */
  const move = (i: number, to: ConversationStep): number => {
    const from = steps[i]!;
    const target = costOf(i, to);
    const current = costOf(i, from)!;
    if (target === undefined || target >= current) return 0;
    steps[i] = to;
    if (from === 'small') smallViews--;
    if (to === 'small') smallViews++;
    if (to === 'pointer') pointerCount++;
    if (to === 'short-pointer') shortCount++;
    sum -= current - target;
    return current - target;
  };

  const stepDown = (count: number, turn: number): void => {
    // What the turn went over, plus the headroom: landing exactly at the budget would break the
    // prefix again on the next result.
    const goal = sum + reserve - budget + clearAtLeast;
    let freed = 0;
    const open = (i: number) => i < count - 1 && i < count - keepLast;
    // Pointer lines this step-down makes keep their long form until the next one.
    const earlier = steps.map((step) => step === 'pointer');
    const tiers: Array<[(i: number) => boolean, ConversationStep]> = [
      [(i) => earlier[i]!, 'short-pointer'],
      [(i) => results[i]!.artifactRead === true && results[i]!.turn < turn, 'pointer'],
      [(i) => !results[i]!.artifactRead && !results[i]!.failed && open(i), 'small'],
      [(i) => !results[i]!.artifactRead && !results[i]!.failed && open(i), 'pointer'],
      [(i) => !results[i]!.artifactRead && results[i]!.failed === true && open(i), 'small'],
      [(i) => !results[i]!.artifactRead && results[i]!.failed === true && open(i), 'pointer'],
    ];
    for (const [eligible, to] of tiers) {
      for (let i = 0; i < count; i++) {
        if (to === 'short-pointer' ? steps[i] !== 'pointer' : isPointer(steps[i]!)) continue;
        if (to === 'small' && steps[i] !== 'view') continue;
        if (!eligible(i) || results[i]!.bytes <= MIN_STEP_DOWN_BYTES) continue;
        freed += move(i, to);
        if (freed >= goal) return;
      }
    }
  };

  for (let start = 0; start < n; ) {
    const turn = results[start]!.turn;
    let end = start;
    while (end < n && results[end]!.turn === turn) {
      steps.push('view');
      sum += costs[end]!.view;
      end++;
    }
    if (sum + noteCost() > budget) {
      const before = sum;
      stepDown(end, turn);
      if (sum < before) stepDowns++;
    }
    start = end;
  }

  const note = noteText();
  const first = steps.findIndex((step) => step !== 'view');
  const fitted = results.map((result, i): FittedResult => {
    const step = steps[i]!;
    const text =
      step === 'view'
        ? result.view
        : step === 'small'
          ? result.smallView!
          : step === 'pointer'
            ? pointers[i]!
            : shortPointers[i]!;
    return { step, text: i === first && note !== undefined ? `${text}\n${note}` : text };
  });
  let total = 0;
  for (const result of fitted) total += measure(result.text);
  return {
    results: fitted,
    total,
    withinBudget: total <= budget,
    stepDowns,
    smallViews,
    pointers: pointerCount,
    shortPointers: shortCount,
  };
}

function isPointer(step: ConversationStep): boolean {
  return step === 'pointer' || step === 'short-pointer';
}
