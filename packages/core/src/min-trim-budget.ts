/**
 * The smallest budget, in UTF-8 bytes, at which a result that does not fit can be trimmed: room
 * for the longest disclosure note and a useful body. A result that already fits is returned
 * unchanged at any budget; one that must be cut below this budget is refused with
 * `BudgetTooSmallError`. Every knob that is a trim budget is raised to it, with a warning.
 */
export const MIN_TRIM_BUDGET_BYTES = 256;
