/** The records segment's room: a share of the budget… */
const RECORD_NOTE_SHARE = 0.08;
/** …and up to this much more where the budget names few of the records. */
const UNNAMED_NOTE_SHARE = 0.11;

/**
 * The bytes of `budget` the note's records segment gets before its floor and cap: 8%, and
 * where the budget could name only some of the records (`namesBytes` names them all; 0 when
 * unknown) more, since what the note says of all of them then weighs more: the share grows by
 * up to `UNNAMED_NOTE_SHARE` times the part of the names the budget falls short of. That room,
 * `b·(s + u·(1 − b/n))`, would shrink as `b` nears `n`; past its peak it holds the peak until 8%
 * of the budget is more. So it never shrinks as the budget grows, and grows by less than the
 * budget does (the body never shrinks either).
 */
export function unnamedNoteRoom(budget: number, namesBytes: number): number {
  if (namesBytes <= 0) return Math.floor(budget * RECORD_NOTE_SHARE);
  const share = (b: number) =>
    RECORD_NOTE_SHARE + UNNAMED_NOTE_SHARE * Math.max(0, 1 - b / namesBytes);
  const peak = Math.min(
    budget,
    (namesBytes * (RECORD_NOTE_SHARE + UNNAMED_NOTE_SHARE)) / (2 * UNNAMED_NOTE_SHARE),
  );
  return Math.floor(Math.max(budget * RECORD_NOTE_SHARE, peak * share(peak)));
}
