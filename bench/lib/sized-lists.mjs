// Generated JSON lists of a given size for the trimmer's throughput bench, in three shapes built
// from the informativeness bench's generators (bench/lib/lists.mjs): a pretty-printed pod list
// (nested records with bookkeeping), workflow runs in an envelope (flat records, minified) and a
// top-level array of request records (minified). Each comes with a question that names one of
// its fields, as a user asking about every record would. Deterministic.
import { podList, requestLog, workflowRuns } from './lists.mjs';

const SHAPES = {
  'pod list': {
    make: (count) => podList(count),
    indent: 2,
    question: 'which nodeName is each pod on?',
  },
  'workflow runs': {
    make: (count) => workflowRuns(count),
    indent: 0,
    question: 'what is the conclusion of each run?',
  },
  'request log': {
    make: (count) => requestLog(count),
    indent: 0,
    question: 'list the latency_ms of every request',
  },
};

/** The shapes `sizedList` makes. */
export const LIST_SHAPES = Object.keys(SHAPES);

/** The question of `shape` that names one of its fields. */
export const fieldQuestion = (shape) => SHAPES[shape].question;

/** A JSON list of `shape` of about `bytes` UTF-8 bytes (within a record's size). */
export function sizedList(shape, bytes) {
  const { make, indent } = SHAPES[shape];
  const sample = 200;
  const perRecord = Buffer.byteLength(JSON.stringify(make(sample), null, indent)) / sample;
  const count = Math.max(1, Math.round(bytes / perRecord));
  return JSON.stringify(make(count), null, indent);
}
