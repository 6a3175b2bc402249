/**
 * `text` with every lone surrogate replaced by U+FFFD. A model can answer with half of a
 * surrogate pair (an emoji cut at a token limit); the replacement is the same 3 UTF-8 bytes the
 * lone half was counted as, so budgets hold, and the view stays text any API accepts.
 */
export function wellFormedText(text: string): string {
  const native = text as unknown as { isWellFormed(): boolean; toWellFormed(): string };
  return native.isWellFormed() ? text : native.toWellFormed();
}
