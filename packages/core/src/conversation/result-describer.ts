/**
 * One line saying what a tool result holds, for the pointer line it steps down to: for JSON
 * its shape and record count, for logs the count of each level and the last error line
 * (`describeResult` of `@compaction/trimmer`). Synchronous and deterministic: the same text
 * must always get the same line, or a restarted process would send other bytes.
 */
export type ResultDescriber = (text: string) => string;
