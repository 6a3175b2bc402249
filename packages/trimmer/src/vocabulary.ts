/**
 * The words the trimmer knows, in one place: everything else it decides from the statistics of
 * the input. Key-name hints only break ties between fields the statistics rank alike.
 */

export const IDENTITY_WORDS: Readonly<Record<string, number>> = {
  name: 3,
  title: 2.5,
  login: 2.5,
  slug: 2.5,
  hostname: 2.5,
  key: 2.2,
  id: 2,
  uid: 1.6,
  uuid: 1.6,
  sha: 1.6,
  arn: 1.6,
  number: 1.8,
  email: 2,
  path: 1.5,
  host: 2,
};
export const STATE_WORDS = new Set([
  'status',
  'state',
  'phase',
  'conclusion',
  'result',
  'outcome',
  'level',
  'severity',
  'code',
  'exit',
  'reason',
  'message',
  'error',
  'health',
  'type',
  'condition',
  'verdict',
  'ready',
]);

/** Words before `code` that make it a state besides the state words (`return_code`, `httpCode`). */
export const CODE_OF = new Set(['return', 'response', 'http', 'rc']);
