/** `text` with every character a regular expression treats specially escaped (`/` too). */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
