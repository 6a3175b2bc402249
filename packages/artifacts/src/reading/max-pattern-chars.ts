/** Longest search pattern accepted, in UTF-16 code units. */
export const MAX_PATTERN_CHARS = 256;
