const MARKER = Symbol.for('compaction.error');

function markerFor(name: string): symbol {
  return Symbol.for(`compaction.error.${name}`);
}

/** Options every Compaction error takes. */
export interface CompactionErrorOptions {
  /** Human-readable, one line. */
  message: string;
  /** A stable machine code, such as `config_invalid`. */
  code?: string;
  /** The error that caused this one. */
  cause?: unknown;
}

/**
 * Base of every error Compaction throws. Detect with `CompactionError.isInstance(e)` (and the
 * subclasses' own `isInstance`), which works across duplicate copies of the package where
 * `instanceof` does not.
 */
export class CompactionError extends Error {
  /** Brand read by `isInstance`, shared by every copy of the package. */
  readonly [MARKER] = true;
  /** Stable machine code. */
  readonly code: string;

  constructor({ message, code = 'compaction_error', cause }: CompactionErrorOptions) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'CompactionError';
    this.code = code;
    Object.defineProperty(this, markerFor(new.target.name), { value: true });
  }

  /** True for any Compaction error. */
  static isInstance(error: unknown): error is CompactionError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }

  /** True when `error` is a Compaction error of the class named `name`. */
  protected static hasMarker(error: unknown, name: string): boolean {
    return CompactionError.isInstance(error) && markerFor(name) in error;
  }
}

/** An explicit option or an environment variable holds a value that cannot be used. */
export class ConfigError extends CompactionError {
  /** The option path, such as `trim.maxResultBytes`. */
  readonly option: string;
  /** The environment variable, when the value came from one. */
  readonly envVar: string | undefined;
  /** The offending value, as given. */
  readonly value: unknown;

  constructor(input: { option: string; envVar?: string; value: unknown; reason: string }) {
    const from = input.envVar ? ` (${input.envVar})` : '';
    super({
      message: `Invalid value for ${input.option}${from}: ${input.reason}`,
      code: 'config_invalid',
    });
    this.name = 'ConfigError';
    this.option = input.option;
    this.envVar = input.envVar;
    this.value = input.value;
  }

  static override isInstance(error: unknown): error is ConfigError {
    return CompactionError.hasMarker(error, 'ConfigError');
  }
}

/** A budget is below the smallest view a processor can honestly produce. */
export class BudgetTooSmallError extends CompactionError {
  /** The budget that was asked for, in UTF-8 bytes. */
  readonly budgetBytes: number;
  /** The smallest budget the processor accepts, in UTF-8 bytes. */
  readonly minimumBytes: number;

  constructor(input: { budgetBytes: number; minimumBytes: number; what?: string }) {
    super({
      message: `Budget of ${input.budgetBytes} ${input.budgetBytes === 1 ? 'byte' : 'bytes'} is below the minimum of ${input.minimumBytes} bytes${input.what ? ` for ${input.what}` : ''}`,
      code: 'budget_too_small',
    });
    this.name = 'BudgetTooSmallError';
    this.budgetBytes = input.budgetBytes;
    this.minimumBytes = input.minimumBytes;
  }

  static override isInstance(error: unknown): error is BudgetTooSmallError {
    return CompactionError.hasMarker(error, 'BudgetTooSmallError');
  }
}

/** An argument is of the wrong type or out of range. */
export class InvalidArgumentError extends CompactionError {
  /** The argument's name. */
  readonly argument: string;

  constructor(input: { argument: string; message: string; cause?: unknown }) {
    super({ message: input.message, code: 'invalid_argument', cause: input.cause });
    this.name = 'InvalidArgumentError';
    this.argument = input.argument;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return CompactionError.hasMarker(error, 'InvalidArgumentError');
  }
}

/** A seam (your processor, distiller or tool-input transform) did not settle within its deadline. */
export class SeamDeadlineError extends CompactionError {
  /** Which seam: `resultProcessor`, `sourceResultProcessor`, `continuationDistiller`, `agentInputProcessor`, … */
  readonly seam: string;
  /** The deadline it was given, in milliseconds. */
  readonly deadlineMs: number;

  constructor(input: { seam: string; deadlineMs: number }) {
    super({
      message: `${input.seam} did not settle within the compaction deadline of ${input.deadlineMs} ms`,
      code: 'seam_deadline',
    });
    this.name = 'SeamDeadlineError';
    this.seam = input.seam;
    this.deadlineMs = input.deadlineMs;
  }

  static override isInstance(error: unknown): error is SeamDeadlineError {
    return CompactionError.hasMarker(error, 'SeamDeadlineError');
  }
}
