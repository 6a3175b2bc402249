// Adversarial input families shared by the complexity benchmark and the fuzz harness: each
// makes a text of about `bytes` UTF-8 bytes whose shape has made some pass super-linear (runs
// of one character or of sentence marks, combining marks alone or between long simple runs,
// flags, deep nesting, wide objects, long lines, many short lines, huge numbers).

const LOG_LINE = '2026-01-01T00:00:00Z INFO worker-7 processed batch latency=12ms\n';

function repeatTo(unit, bytes) {
  return unit.repeat(Math.max(1, Math.floor(bytes / Buffer.byteLength(unit))));
}

/** Text families: name → (bytes) → text. */
export const TEXT_FAMILIES = {
  'run of one character': (bytes) => 'a'.repeat(bytes),
  'run of sentence marks': (bytes) => '.'.repeat(bytes),
  'marks and closers, no space': (bytes) => repeatTo('?!.")]', bytes),
  'ellipses with spaces': (bytes) => repeatTo('... ', bytes),
  'progress line in a log': (bytes) =>
    `${LOG_LINE.repeat(50)}progress ${'.'.repeat(Math.max(1, bytes - 100 * LOG_LINE.length))}\n${LOG_LINE.repeat(50)}`,
  'decomposed accents': (bytes) => repeatTo('e\u0301', bytes),
  'one cluster of marks': (bytes) => `a${repeatTo('\u0301', bytes)}`,
  'long simple runs between marks': (bytes) => repeatTo(`${'x'.repeat(60)}\u0301`, bytes),
  'regional-indicator flags': (bytes) => repeatTo('🇫🇷', bytes),
  'long lines': (bytes) => repeatTo(`${'word '.repeat(20_000)}\n`, bytes),
  'many short lines': (bytes) => repeatTo('x\n', bytes),
  'base64 padding': (bytes) => repeatTo('QUJD==', bytes),
};

/** JSON families: name → (bytes) → JSON text. */
export const JSON_FAMILIES = {
  'deep array nesting': (bytes) => {
    const depth = Math.max(1, Math.floor(bytes / 2));
    return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  },
  'deep object nesting': (bytes) => {
    const depth = Math.max(1, Math.floor(bytes / 6));
    return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  },
  'wide object': (bytes) => {
    const members = [];
    let size = 2;
    for (let i = 0; size < bytes; i++) {
      const member = `"key${i}":${i}`;
      members.push(member);
      size += member.length + 1;
    }
    return `{${members.join(',')}}`;
  },
  'huge numbers': (bytes) => {
    const number = `${'9'.repeat(60)}.${'1'.repeat(20)}e400`;
    return `[${repeatTo(`${number},`, bytes - 2)}0]`;
  },
  'long string values': (bytes) => `["${'x'.repeat(Math.max(1, bytes - 4))}"]`,
  // Records whose links differ only in their middle, all of one length: a hash of a long
  // value's ends alone puts them all in one place.
  'links alike but in their middle': (bytes) => {
    const items = [];
    let size = 2;
    for (let i = 0; size < bytes; i++) {
      const item = `{"url":"https://api.example.com/v1/resources/${String(i).padStart(8, '0')}/details/summary.json"}`;
      items.push(item);
      size += item.length + 1;
    }
    return `[${items.join(',')}]`;
  },
  'many small items': (bytes) => `[${repeatTo('{"id":1,"ok":true},', bytes - 2)}{}]`,
  'string of sentence marks': (bytes) => `{"log":"${'.'.repeat(Math.max(1, bytes - 10))}"}`,
};
