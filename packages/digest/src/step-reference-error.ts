import { CompactionError } from '@compaction/core';

/** Why a step reference could not be bound. */
export type StepReferenceErrorCode =
  | 'step_reference_invalid'
  | 'step_not_found'
  | 'step_not_succeeded'
  | 'step_result_not_json'
  | 'step_path_not_found';

/** A `{{step-N.path}}` reference names no step, a step without a result, or a missing path. */
export class StepReferenceError extends CompactionError {
  /** The reference as written. */
  readonly reference: string;
  /** The step id it named, when one was recognised. */
  readonly stepId: string | undefined;
  /** The path prefix that resolved before the failure, such as `data.result[0]`. */
  readonly resolvedPath: string | undefined;

  constructor(input: {
    code: StepReferenceErrorCode;
    message: string;
    reference: string;
    stepId?: string;
    resolvedPath?: string;
  }) {
    super({ message: input.message, code: input.code });
    this.name = 'StepReferenceError';
    this.reference = input.reference;
    this.stepId = input.stepId;
    this.resolvedPath = input.resolvedPath;
  }

  static override isInstance(error: unknown): error is StepReferenceError {
    return CompactionError.hasMarker(error, 'StepReferenceError');
  }
}
