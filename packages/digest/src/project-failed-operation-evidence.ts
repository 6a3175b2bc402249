import {
  type JsonValue,
  type StepRecord,
  stringifyJsonLossless,
  utf8ByteLength,
} from '@compaction/core';
import { jsonStringWithin } from './json-string-within.js';

/** What an input policy is asked about: one input of one failed attempt. */
export interface FailedOperationInput {
  /** Id of the failed step. */
  stepId: string;
  /** Tool the attempt called. */
  toolName: string | undefined;
  /** Parameter name. */
  name: string;
  /** The value the attempt was dispatched with (never modified). */
  value: JsonValue;
}

/**
 * An application disclosure policy: may this input of a failed attempt appear in a prompt?
 * It can allow or omit an input, never rewrite it; any answer other than `'allow'` omits, and a
 * policy that throws omits every input of that attempt. It must be pure and safe to call
 * concurrently. It is not framework redaction: it only decides what this view shows.
 */
export type FailedOperationInputPolicy = (input: FailedOperationInput) => 'allow' | 'omit';

/** Limits of one view, in final rendered UTF-8 bytes (JSON escapes included). */
export interface FailedOperationEvidenceLimits {
  /** Per rendered input value. Default config `failedOperationView.maxInputBytes` (4096). */
  maxInputBytes: number;
  /** The whole view JSON. Default config `failedOperationView.maxStepBytes` (16384). */
  maxStepBytes: number;
  /** Which inputs may be shown. Default: all. */
  policy?: FailedOperationInputPolicy;
}

/**
 * The failed-operation evidence of one step: a derived view of a failed dispatch with the
 * attempt's inputs and structured error code, as one JSON object.
 *
 * - `complete`: every input, whole.
 * - `partial`: some inputs truncated (`truncatedInputs`: a string is cut to a prefix; any other
 *   value is shown as a string holding a prefix of its JSON), omitted by the policy
 *   (`omittedByPolicy`; `inputPolicyError: true` when the policy threw) or dropped, largest
 *   first, to fit the step limit (`omittedForBudget`).
 * - `omitted`: not even the error code fits the limit.
 * - `unavailable`: a legacy failed record without dispatch evidence.
 * - `not_applicable`: not a failed dispatch (a success, or a binding rejected before dispatch).
 */
export type FailedOperationEvidence =
  | {
      status: 'complete' | 'partial';
      /** The view: one JSON object, at most the step limit in UTF-8 bytes. */
      json: string;
      /** UTF-8 bytes of `json`. */
      bytes: number;
    }
  | { status: 'omitted'; reason: 'budget' }
  | { status: 'unavailable' }
  | { status: 'not_applicable' };

const MAX_CODE_BYTES = 256;

function renderValue(
  value: JsonValue,
  maxBytes: number,
): { text: string; bytes: number; truncated: boolean } {
  // A string longer than the cap in UTF-16 units is over it in bytes: skip encoding it whole.
  if (typeof value !== 'string' || value.length <= maxBytes) {
    const text = stringifyJsonLossless(value);
    const bytes = utf8ByteLength(text);
    if (bytes <= maxBytes) return { text, bytes, truncated: false };
    const literal = jsonStringWithin(typeof value === 'string' ? value : text, maxBytes);
    return { text: literal, bytes: utf8ByteLength(literal), truncated: true };
  }
  const literal = jsonStringWithin(value, maxBytes);
  return { text: literal, bytes: utf8ByteLength(literal), truncated: true };
}

const names = (list: string[]) => `[${list.map((name) => JSON.stringify(name)).join(',')}]`;

/**
 * Projects the failed-operation evidence of `step` within `limits`. The record is read, never
 * changed. Successful attempts and pre-dispatch rejections have no view.
 */
export function projectFailedOperationEvidence(
  step: StepRecord,
  limits: FailedOperationEvidenceLimits,
): FailedOperationEvidence {
  if (step.status !== 'failed') return { status: 'not_applicable' };
  if (step.inputs === undefined || step.inputs === null) return { status: 'unavailable' };

  const entries = Object.entries(step.inputs);
  let allowed: Array<[string, JsonValue]> = entries;
  const omittedByPolicy: string[] = [];
  let policyError = false;
  if (limits.policy) {
    allowed = [];
    try {
      for (const [name, value] of entries) {
        const verdict = limits.policy({ stepId: step.id, toolName: step.toolName, name, value });
        if (verdict === 'allow') allowed.push([name, value]);
        else omittedByPolicy.push(name);
      }
    } catch {
      policyError = true;
      allowed = [];
      omittedByPolicy.length = 0;
      for (const [name] of entries) omittedByPolicy.push(name);
    }
  }

  const code = jsonStringWithin(step.error?.code ?? 'unknown', MAX_CODE_BYTES);
  const truncatedInputs: string[] = [];
  const omittedForBudget: string[] = [];
  const members: Array<{ name: string; text: string; bytes: number }> = [];
  for (const [name, value] of allowed) {
    const rendered = renderValue(value, limits.maxInputBytes);
    if (rendered.bytes > limits.maxInputBytes) {
      omittedForBudget.push(name);
      continue;
    }
    if (rendered.truncated) truncatedInputs.push(name);
    const text = `${JSON.stringify(name)}:${rendered.text}`;
    members.push({ name, text, bytes: utf8ByteLength(text) });
  }

  const render = (listNames: boolean): string => {
    let json = `{"errorCode":${code},"inputs":{${members.map((member) => member.text).join(',')}}`;
    const lists: Array<[string, string[]]> = [
      ['truncatedInputs', truncatedInputs.filter((name) => !omittedForBudget.includes(name))],
      ['omittedByPolicy', omittedByPolicy],
      ['omittedForBudget', omittedForBudget],
    ];
    for (const [key, list] of lists) {
      if (list.length === 0) continue;
      json += listNames ? `,"${key}":${names(list)}` : `,"${key}Count":${list.length}`;
    }
    if (policyError) json += ',"inputPolicyError":true';
    return `${json}}`;
  };

  let json = render(true);
  let bytes = utf8ByteLength(json);
  while (bytes > limits.maxStepBytes && members.length > 0) {
    let largest = 0;
    for (let i = 1; i < members.length; i++) {
      if (members[i]!.bytes > members[largest]!.bytes) largest = i;
    }
    omittedForBudget.push(members[largest]!.name);
    members.splice(largest, 1);
    json = render(true);
    bytes = utf8ByteLength(json);
  }
  if (bytes > limits.maxStepBytes) {
    json = render(false);
    bytes = utf8ByteLength(json);
    if (bytes > limits.maxStepBytes) return { status: 'omitted', reason: 'budget' };
  }
  const partial =
    truncatedInputs.length > 0 || omittedByPolicy.length > 0 || omittedForBudget.length > 0;
  return { status: partial ? 'partial' : 'complete', json, bytes };
}
