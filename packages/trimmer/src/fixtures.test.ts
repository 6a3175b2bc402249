import { fixturesAvailable, listFixtures, readFixture } from '@compaction/fixtures';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from './create-structural-trimmer.js';
import { parseOmittedLinesMarker } from './engine/omitted-lines-marker.js';
import {
  expectHonestView,
  expectMarkedLines,
  numberTokens,
  viewBody,
} from './test-support/view-invariants.js';

describe.skipIf(!fixturesAvailable())('real payloads from ../shared/fixtures', () => {
  const trimmer = createStructuralTrimmer();

  it('holds every invariant on every fixture at 3%, 10% and 64 KiB', () => {
    for (const fixture of listFixtures()) {
      const text = readFixture(fixture.path);
      for (const budget of [
        Math.max(256, Math.floor(fixture.bytes * 0.03)),
        Math.max(256, Math.floor(fixture.bytes * 0.1)),
        65_536,
      ]) {
        const view = trimmer.trim(text, budget);
        expectHonestView(view, text, budget);
        if (
          viewBody(view)
            .split('\n')
            .some((line) => parseOmittedLinesMarker(line))
        ) {
          // Lines and hunks: every kept line where its markers say, escape codes as noted.
          expectMarkedLines(view, text);
        }
        if (fixture.kind === 'json')
          expect(['json', 'minified', 'unchanged']).toContain(view.metadata.strategy);
        expect(trimmer.trim(text, budget)).toEqual(view);
      }
    }
  });

  it('minifies losslessly before cutting: the EC2 listing fits 64 KiB once minified', () => {
    const text = readFixture('cloud/aws-ec2-describe-instances.json');
    const view = trimmer.trim(text, 65_536);
    expect(view.metadata).toMatchObject({ contentLost: false, strategy: 'minified' });
    expect(view.metadata.outputBytes).toBeLessThan(30_000);
    expect(JSON.parse(view.text)).toEqual(JSON.parse(text));
  });

  it('keeps 64-bit ids byte for byte in a lossy view', () => {
    const text = readFixture('bigint/twitter-search-results.json');
    const view = trimmer.trim(text, 20_000, { userQuery: 'id' });
    const source = new Set(numberTokens(text));
    const kept = numberTokens(viewBody(view)).filter((token) => token.length >= 17);
    expect(kept.length).toBeGreaterThan(0);
    for (const token of kept) expect(source.has(token)).toBe(true);
  });

  it('finds a pod the query names deep in a PodList', () => {
    const text = readFixture('k8s/k3s-pods-kube-system.json');
    const items = (
      JSON.parse(text) as { items: Array<{ metadata: { name: string; uid: string } }> }
    ).items;
    const target = items[Math.floor(items.length * 0.8)]!.metadata;
    const view = trimmer.trim(text, 6000, { userQuery: `what is the uid of pod ${target.name}?` });
    expectHonestView(view, text, 6000);
    expect(viewBody(view)).toContain(target.uid);
    expect(viewBody(view)).toContain(target.name);
  });
});
