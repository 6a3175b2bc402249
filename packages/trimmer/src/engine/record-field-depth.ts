import { STEP_ITEM } from '../json/json-signatures.js';
import type { RecordGroup } from '../readers/json-records.js';
import type { RecordAnalysis } from './analyze-records.js';

/** How a field sits in a list's records (`recordFieldDepth`). */
export interface RecordFieldDepth {
  /** Keys between the record and the field (1 for a field of the record itself). */
  depth: number;
  /** The field is one of the only item of a list each record holds (`oneEach`). */
  throughOne: boolean;
}

const NOT_A_FIELD: RecordFieldDepth = Object.freeze({ depth: -1, throughOne: false });

/**
 * Where field `s` sits in `group`'s records: a field of the record, of an object it holds, or
 * of the only item of a list it holds one of in each record (an EC2 reservation's one instance:
 * `Instances[].State.Name`), with the keys counted from the record; depth -1 for a field of the
 * items of a list the records hold (each of a pod's conditions), of another list, or of none.
 * The one rule the note's aggregates, the question's columns and the time order share.
 */
export function recordFieldDepth(
  analysis: RecordAnalysis,
  group: RecordGroup,
  s: number,
): RecordFieldDepth {
  const { signatures, groupOfSig, groups, fieldDepth } = analysis;
  if (fieldDepth[s]! < 1) return NOT_A_FIELD;
  let owner = signatures.parent[s]!;
  let throughOne = false;
  while (owner > 0) {
    const g = groupOfSig[owner]!;
    if (g >= 0) {
      if (!groups[g]!.oneEach) break;
      throughOne = true;
    }
    owner = signatures.parent[owner]!;
  }
  if (owner !== group.sig) return NOT_A_FIELD;
  if (!throughOne) return { depth: fieldDepth[s]!, throughOne };
  let keys = 0;
  for (let x = s; x > group.sig; x = signatures.parent[x]!) {
    if (signatures.step[x] !== STEP_ITEM) keys++;
  }
  return { depth: keys, throughOne };
}
