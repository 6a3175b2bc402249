import { escapeRegExp } from '../escape-reg-exp.js';

/**
 * The alternation of the literal `words`, in order, matched case-insensitively (flag `i`, no
 * `u`), as a pattern source with the words that open with one letter (in any case) grouped
 * under it, their shared opening written once, and so on down: `['failed', 'failure', 'fatal']`
 * gives `fa(?:il(?:ed|ure)|tal)`. At every place it matches what `words.join('|')` matches
 * (words of different first letters never both match at one place; the order of those that
 * share one is kept), and V8 tries one branch per letter where it tried every word. A word
 * that has ended (`''`) matches wherever it is tried: the words after it are never reached,
 * and are left out. Words must be printable ASCII, where folding case is one to one.
 */
export function factoredAlternation(words: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const word of words) {
    const key = word === '' ? '' : word[0]!.toLowerCase();
    const group = groups.get(key);
    if (group) group.push(word.slice(1));
    else groups.set(key, [word.slice(1)]);
    if (word === '') break;
  }
  const branches: string[] = [];
  for (const [key, rests] of groups) {
    if (key === '') {
      branches.push('');
      continue;
    }
    // The opening every word of the group shares, in any case, is written once.
    let shared = 0;
    const first = rests[0]!.toLowerCase();
    while (
      shared < first.length &&
      rests.every((rest) => rest.length > shared && rest[shared]!.toLowerCase() === first[shared])
    ) {
      shared++;
    }
    const opening = escapeRegExp(key + rests[0]!.slice(0, shared));
    const after =
      rests.length === 1 ? '' : factoredAlternation(rests.map((rest) => rest.slice(shared)));
    branches.push(after === '' ? opening : `${opening}(?:${after})`);
  }
  return branches.join('|');
}
