import {
  InvalidArgumentError,
  parseRecordCoverage,
  trailingDisclosureNotes,
} from '@compaction/core';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { recencyAsk } from './engine/recency.js';
import { resolveVocabulary, type VocabularyOverride } from './resolve-vocabulary.js';
import { viewBody } from './test-support/view-invariants.js';
import { DEFAULT_VOCABULARY } from './vocabulary.js';

/** 200 jobs, all fine but one, whose message says so in a word no default vocabulary knows. */
/** Words a disk copy ends in, none an error word (`kaputt` is one only where it is given). */
const STATES = ['heil', 'ganz', 'frisch', 'voll', 'leer', 'neu', 'alt', 'kalt', 'warm', 'dicht'];

/**
 * 200 jobs, each message of one shape (its last word holds the job's number: a variable), the
 * 137th saying its disk is `kaputt`: nothing but the word tells it from the others.
 */
function jobs(): string {
  const records = Array.from({ length: 200 }, (_, i) => ({
    job: `job-${(i * 7919).toString(36)}`,
    shard: i % 17,
    message: `the copy on shard ${i % 17} found the disk ${i === 137 ? 'kaputt' : STATES[i % 10]}${i}`,
  }));
  return JSON.stringify({ jobs: records });
}

describe('the vocabulary a trimmer is given', () => {
  it('is the default one, and the same object, when none is given', () => {
    expect(resolveVocabulary(undefined)).toBe(DEFAULT_VOCABULARY);
    const custom = resolveVocabulary({ countWords: ['Wieviele', ' anzahl '] });
    expect([...custom.countWords]).toEqual(['wieviele', 'anzahl']);
    expect(custom.errorWords).toBe(DEFAULT_VOCABULARY.errorWords);
  });

  it('refuses a set it does not know and words it cannot use, at construction', () => {
    const bad: unknown[] = [
      null,
      ['error'],
      { errorWord: ['error'] },
      { errorWords: 'error' },
      { errorWords: ['ok', 'é-error'] },
      { errorWords: ['x'] },
      { errorWords: ['two  spaces'] },
      { stateWords: ['status', 3] },
      { stopwords: [''] },
      { identityWords: { name: -1 } },
      { identityWords: ['name'] },
      { levelWords: { fehler: 'severe' } },
      { levelWords: { 'two words': 'error' } },
      { levelLetters: { EE: 'error' } },
      { levelMarks: { x: 'error' } },
      { levelKeys: ['log level'] },
      { exceptionSuffixes: ['Error:'] },
      { continuationOpeners: ['line\nbreak'] },
    ];
    for (const vocabulary of bad) {
      expect(() =>
        createStructuralTrimmer({ vocabulary: vocabulary as VocabularyOverride }),
      ).toThrowError(InvalidArgumentError);
    }
  });

  it('finds error words it is given, in JSON values and in log lines', () => {
    const json = jobs();
    const budget = Math.floor(json.length * 0.03);
    const shows = (text: string) => text.includes('job-') && text.includes('kaputt');
    const german = createStructuralTrimmer({
      vocabulary: { errorWords: [...DEFAULT_VOCABULARY.errorWords, 'kaputt'] },
    });
    const trimmed = german.trim(json, budget);
    expect(trimmed.text).toContain(`"job":"job-${(137 * 7919).toString(36)}"`);
    expect(shows(viewBody(trimmed))).toBe(true);
    // The default vocabulary does not read it as an error: the message is one of 200.
    expect(createStructuralTrimmer().trim(json, budget).text).not.toContain('kaputt');
    // A log of the same: the line is kept where the default vocabulary sees nothing in it.
    // Every line ends in a word of its own, so the one that matters is no rarer than the rest.
    const words = STATES;
    const log = Array.from(
      { length: 400 },
      (_, i) =>
        `2026-03-01T10:${String(i % 60).padStart(2, '0')}:00Z copy ${i}: die Platte ist ${words[i % 10]}${i}`,
    );
    log[271] = '2026-03-01T10:31:00Z copy 271: die Platte ist kaputt271';
    const text = log.join('\n');
    expect(german.trim(text, 1024).text).toContain('kaputt');
    expect(createStructuralTrimmer().trim(text, 1024).text).not.toContain('kaputt');
  });

  it('reads levels, marks, exit words and exception openings by the words it is given', () => {
    const lines = Array.from(
      { length: 400 },
      (_, i) => `2026-03-01T10:${String(i % 60).padStart(2, '0')}:00Z INFO copy ${i} done`,
    );
    lines[101] = '2026-03-01T10:41:00Z FEHLER copy 101: Platte voll';
    lines[202] = '➤ copy 202 retried';
    lines[303] = 'Ausnahme im Thread "main" at copy 303';
    const text = lines.join('\n');
    const german = createStructuralTrimmer({
      vocabulary: {
        levelWords: { ...DEFAULT_VOCABULARY.levelWords, fehler: 'error' },
        levelMarks: { ...DEFAULT_VOCABULARY.levelMarks, '➤': 'warn' },
        exceptionOpeners: [...DEFAULT_VOCABULARY.exceptionOpeners, 'Ausnahme im Thread'],
      },
    });
    const trimmed = german.trim(text, 1024).text;
    expect(trimmed).toContain('FEHLER copy 101');
    expect(trimmed).toContain('➤ copy 202');
    expect(trimmed).toContain('Ausnahme im Thread');
    // The breakdown counts the new level words as what they state.
    expect(trimmed).toMatch(/error=0\/2 warn=0\/1/);
    // The default vocabulary keeps the odd lines for their shape, but reads no level in them.
    const plain = createStructuralTrimmer().trim(text, 1024).text;
    expect(plain).not.toMatch(/error=\d+\/\d+/);
    // Without the exit words, `exit code 3` says nothing.
    const exits = lines.map((line, i) => (i === 350 ? 'job 350: exit code 3' : line)).join('\n');
    expect(createStructuralTrimmer().trim(exits, 1024).text).toMatch(/error=0\/1 /);
    expect(
      createStructuralTrimmer({ vocabulary: { exitWords: [] } }).trim(exits, 1024).text,
    ).not.toMatch(/error=\d+\/\d+/);
    // Without the status protocols, a response's 503 says nothing.
    const served = lines
      .map((line, i) => (i === 350 ? '10.0.0.7 - - [t] "GET /pay HTTP/1.1" 503 0' : line))
      .join('\n');
    expect(createStructuralTrimmer().trim(served, 1024).text).toMatch(/error=0\/1 /);
    expect(
      createStructuralTrimmer({ vocabulary: { statusProtocols: [] } }).trim(served, 1024).text,
    ).not.toMatch(/error=\d+\/\d+/);
  });

  it('switches key-name hints off with empty sets', () => {
    // Two short unique columns alike in every statistic: the key `name` breaks the tie by
    // default; with no identity words, the first column does.
    const records = Array.from({ length: 40 }, (_, i) => ({
      label: `lbl-${(i * 31).toString(36)}-x`,
      name: `nm-${(i * 37).toString(36)}-yz`,
      state: i % 9 === 0 ? 'failed' : 'ok',
    }));
    const json = JSON.stringify({ items: records });
    const namedBy = (vocabulary?: VocabularyOverride) => {
      const view = createStructuralTrimmer({ vocabulary }).trim(json, 700);
      return parseRecordCoverage(trailingDisclosureNotes(view.text)[0]!.text)?.namedBy;
    };
    expect(namedBy()).toBe('name');
    expect(namedBy({ identityWords: {} })).toBe('label');
  });

  it('reads the question words it is given', () => {
    const german = resolveVocabulary({ newestWords: ['neueste', 'letzte'] });
    expect(recencyAsk(['die', '3', 'neueste'], german)).toEqual({ newest: 3 });
    expect(recencyAsk(['die', '3', 'neueste'])).toBeUndefined();
    expect(recencyAsk(['the', '3', 'newest'], german)).toBeUndefined();
  });
});
