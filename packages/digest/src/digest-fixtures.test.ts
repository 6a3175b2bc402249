import { type JsonValue, parseJsonLossless } from '@compaction/core';
import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import { describe, expect, it } from 'vitest';
import { createDigester } from './create-digester.js';
import { createPlanningSectionRenderer } from './create-planning-section-renderer.js';
import { createStepResolver } from './create-step-resolver.js';
import { digestMismatch } from './test-support/digest-oracle.js';

function lossless(text: string): JsonValue {
  const parsed = parseJsonLossless(text);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

describe.skipIf(!fixturesAvailable())('digests of the shared fixtures', () => {
  const digester = createDigester({ env: {} });
  const json = fixturesAvailable() ? listFixtures({ kind: 'json' }) : [];

  it.each(json.map((fixture) => [fixture.path]))('%s: valid, spec-conformant digest', (path) => {
    const text = readFixture(path);
    const outcome = digester.digest(text);
    if (!outcome.ok) throw outcome.error;
    expect(digestMismatch(lossless(text), lossless(outcome.digest), digester.caps)).toBeUndefined();
    expect(outcome.digestBytes).toBeLessThan(outcome.originalBytes);
  });

  it('keeps the 64-bit tweet ids of the Twitter search results byte for byte', () => {
    const text = readFixture('bigint/twitter-search-results.json');
    const digest = digester.digest(text);
    if (!digest.ok) throw digest.error;
    const firstId = /"id": *(\d{17,})/.exec(text)![1]!;
    expect(Number.isSafeInteger(Number(firstId))).toBe(false);
    expect(digest.digest).toContain(`"id":${firstId}`);
    const resolver = createStepResolver([{ id: 'step-1', status: 'succeeded', result: text }]);
    expect(resolver.resolve('step-1.statuses[0].id').json).toBe(firstId);
  });

  it('digests JSON fixtures and previews text fixtures in one planning section', async () => {
    const steps = listFixtures().map((fixture, i) => ({
      id: `step-${i + 1}`,
      status: 'succeeded' as const,
      result: readFixture(fixture.path),
    }));
    const section = await createPlanningSectionRenderer({ env: {} }).render(steps);
    expect(section.text).toContain(`## step-${steps.length}:`);
    expect(section.text.endsWith(`of ${steps.length} completed steps]`)).toBe(true);
    expect(section.evictedStepIds).toEqual(
      steps.slice(0, section.evictedStepIds.length).map((step) => step.id),
    );
  });
});
