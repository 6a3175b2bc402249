// fast-check arbitraries of JSON texts, shared by the JSON tests of core.
import fc from 'fast-check';

/** A JSON number token of any shape: sign, long integers, fractions, exponents. */
export const numberToken = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9][0-9]{0,24}$/)),
    fc.option(fc.stringMatching(/^[0-9]{1,20}$/), { nil: undefined }),
    fc.option(
      fc.tuple(
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        fc.stringMatching(/^[0-9]{1,3}$/),
      ),
      {
        nil: undefined,
      },
    ),
  )
  .map(
    ([negative, int, frac, exp]) =>
      `${negative ? '-' : ''}${int}${frac ? `.${frac}` : ''}${exp ? exp.join('') : ''}`,
  );

// Keys that look like array indices are ordered first by JavaScript objects; that reordering is
// pinned by its own test below, so the generator avoids them.
const objectKey = fc.string().filter((key) => !/^(0|[1-9][0-9]*)$/.test(key));

/** The same JSON document written minified and with whitespace (CRLF and tabs included). */
export type Pair = { minified: string; pretty: string };

export const { value: jsonPair } = fc.letrec<{ value: Pair }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberToken.map((token) => ({ minified: token, pretty: token })),
    fc
      .string({ unit: fc.oneof(fc.constant('-1.0e5'), fc.string({ unit: 'binary' })) })
      .map((s) => ({ minified: JSON.stringify(s), pretty: JSON.stringify(s) })),
    fc.constantFrom('true', 'false', 'null').map((s) => ({ minified: s, pretty: s })),
    fc.array(tie('value'), { maxLength: 5 }).map((items) => ({
      minified: `[${items.map((item) => item.minified).join(',')}]`,
      pretty: `[\n  ${items.map((item) => item.pretty).join(',\r\n\t')} ]`,
    })),
    fc
      .uniqueArray(
        fc.tuple(fc.oneof(objectKey, fc.constantFrom('__proto__', 'constructor')), tie('value')),
        {
          maxLength: 5,
          selector: ([key]) => key,
        },
      )
      .map((entries) => ({
        minified: `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${item.minified}`).join(',')}}`,
        pretty: `{ ${entries.map(([key, item]) => `${JSON.stringify(key)} : ${item.pretty}`).join(' ,\n ')} }`,
      })),
  ),
}));

// Units that matter to a scanner: quotes and backslashes (escaped), digits and signs, units whose
// low byte is a quote or a backslash (U+0122, U+225C), lone surrogates, astral characters.
const rawStringPart = fc.oneof(
  fc.constantFrom(
    '\\"',
    '\\\\',
    '\\\\\\"',
    '\\u0022',
    '\\/',
    '\\n',
    '-12345678901234567890',
    '1.0',
    '-0',
    '1e5',
    '\u0122',
    '\u225c',
    '\ud800',
    '\udfff',
    '\ud83d\ude00',
    'é',
    '漢',
  ),
  fc.string({ unit: 'binary-ascii' }).map((s) => s.replace(/["\\\u0000-\u001f]/g, '')),
);

/** A JSON string literal as a producer might write it: raw non-ASCII, lone surrogates, escapes. */
export const rawStringLiteral = fc
  .array(rawStringPart, { maxLength: 8 })
  .map((parts) => `"${parts.join('')}"`);
