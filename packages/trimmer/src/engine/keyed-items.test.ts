import { parseRecordCoverage, trailingDisclosureNotes } from '@compaction/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStructuralTrimmer } from '../create-structural-trimmer.js';
import { seeded } from '../test-support/generated-lists.js';
import { viewBody } from '../test-support/view-invariants.js';

const trimmer = createStructuralTrimmer();

function noteOf(text: string, budget: number) {
  const view = trimmer.trim(text, budget);
  const note = trailingDisclosureNotes(view.text)[0]?.text ?? '';
  return parseRecordCoverage(note);
}

/** How many records hold each value of `field` in their item whose `key` is `name`. */
function truth(
  records: ReadonlyArray<Record<string, unknown>>,
  list: string,
  key: string,
  name: string,
  field: string,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const record of records) {
    const items = record[list] as Array<Record<string, unknown>>;
    const item = items.find((entry) => entry[key] === name);
    if (item === undefined || !(field in item)) continue;
    const value = String(item[field]);
    counts.set(value, (counts.get(value) ?? 0) + 1);
  }
  return counts;
}

const KINDS = ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

/** Pods whose conditions are named by `type`, in an order of their own; a few are not ready. */
function pods(count: number, seed: number) {
  const next = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const ready = i % 9 === 4 ? 'False' : 'True';
    const conditions = KINDS.map((type) => ({
      type,
      status: type === 'Ready' || type === 'ContainersReady' ? ready : 'True',
      lastTransitionTime: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    })).sort(() => next() - 0.5);
    return { name: `web-${(i * 7919).toString(36)}`, phase: 'Running', conditions };
  });
}

describe('fields of the items of a list each record names by a key', () => {
  it("tells how the records divide by a named item's field, fields alike once, not a constant one", () => {
    const items = pods(60, 7);
    const text = JSON.stringify({ items });
    const note = noteOf(text, Math.floor(text.length * 0.1))!;
    const told = note.distributions?.find(
      (d) =>
        d.field === 'conditions[type=Ready].status' ||
        d.alike?.includes('conditions[type=Ready].status'),
    );
    expect(told).toBeDefined();
    expect(new Map(told!.values.map((v) => [v.value, v.count]))).toEqual(
      truth(items, 'conditions', 'type', 'Ready', 'status'),
    );
    // `ContainersReady` holds `Ready`'s value in every pod: told with it, not again.
    expect([told!.field, ...(told!.alike ?? [])].sort()).toEqual([
      'conditions[type=ContainersReady].status',
      'conditions[type=Ready].status',
    ]);
    // One value in every pod, or a time in each: no division.
    const fields = note.distributions?.map((d) => d.field) ?? [];
    expect(fields.some((field) => field.includes('[type=PodScheduled]'))).toBe(false);
    expect(fields.some((field) => field.includes('lastTransitionTime'))).toBe(false);
  });

  it('tells first the field of the item a question names, leading the ones told with it', () => {
    const items = pods(60, 7);
    const text = JSON.stringify({ items });
    const budget = Math.floor(text.length * 0.05);
    const first = (question?: string) => {
      const view = trimmer.trim(text, budget, question ? { userQuery: question } : undefined);
      const note = trailingDisclosureNotes(view.text)[0]?.text ?? '';
      return parseRecordCoverage(note)?.distributions?.[0]?.field;
    };
    expect(first('which pods are not ready?')).toBe('conditions[type=Ready].status');
    expect(first('which pods are not containersready?')).toBe(
      'conditions[type=ContainersReady].status',
    );
    expect(first()).not.toBe('conditions[type=Ready].status');
  });

  it('shows for each record the field of the item a question names', () => {
    const items = pods(60, 7);
    const text = JSON.stringify({ items });
    const view = trimmer.trim(text, Math.floor(text.length * 0.15), {
      userQuery: 'what is the ready status of each pod?',
    });
    const shown = (JSON.parse(viewBody(view)) as { items: Array<Record<string, unknown>> }).items;
    const truthOf = new Map(items.map((pod) => [pod.name, pod]));
    let answered = 0;
    for (const pod of shown) {
      const conditions = pod.conditions as Array<{ type?: string; status?: string }> | undefined;
      const ready = conditions?.find((condition) => condition.type === 'Ready');
      if (!ready || typeof pod.name !== 'string') continue;
      const truth = truthOf.get(pod.name)!.conditions.find((c) => c.type === 'Ready')!;
      expect(ready.status).toBe(truth.status);
      answered++;
    }
    expect(answered).toBeGreaterThanOrEqual(0.7 * items.length);
  });

  it('reads key/value pairs as fields, and their time as the records’ range where they have none', () => {
    const next = seeded(3);
    const severities = ['1', '1', '1', '3', '5'];
    const results = Array.from({ length: 80 }, (_, i) => ({
      metadata: [
        { key: 'logid', value: `${(i * 104_729).toString(16)}-4c1d` },
        { key: 'severity', value: severities[Math.floor(next() * 5)]! },
        { key: 'timestamp', value: `2025-03-25T07:${String(10 + (i % 50)).padStart(2, '0')}:00` },
      ].sort(() => next() - 0.5),
      labels: [
        { key: 'app', value: 'checkout' },
        { key: 'subsystem', value: i % 3 === 0 ? 'sidecar' : 'server' },
      ],
      userData: `{"log":"request ${i} served in ${Math.floor(next() * 900)} ms"}`,
    }));
    const text = JSON.stringify({ result: { results } });
    const note = noteOf(text, Math.floor(text.length * 0.2))!;
    const by = (field: string) =>
      new Map(
        note.distributions?.find((d) => d.field === field)?.values.map((v) => [v.value, v.count]),
      );
    expect(by('metadata[key=severity].value')).toEqual(
      truth(results, 'metadata', 'key', 'severity', 'value'),
    );
    expect(by('labels[key=subsystem].value')).toEqual(
      truth(results, 'labels', 'key', 'subsystem', 'value'),
    );
    expect(note.ranges).toContainEqual({
      field: 'metadata[key=timestamp].value',
      from: '2025-03-25T07:10:00',
      to: '2025-03-25T07:59:00',
    });
    // Ids divide nothing.
    expect(note.distributions?.some((d) => d.field.includes('[key=logid]'))).toBe(false);
  });

  it('reads the tags of the one item each record holds as the record’s own', () => {
    // An EC2 reservation holds one instance; the instance's tags are named by `Key`.
    const reservations = Array.from({ length: 60 }, (_, r) => ({
      ReservationId: `r-${(r * 104_729).toString(16).padStart(17, '0')}`,
      Instances: [
        {
          InstanceId: `i-${(r * 7919 + 11).toString(16).padStart(17, '0')}`,
          InstanceType: ['t3.micro', 't3.large', 'm5.xlarge'][r % 3],
          State: { Code: r === 41 ? 80 : 16, Name: r === 41 ? 'stopped' : 'running' },
          LaunchTime: new Date(Date.UTC(2026, 10, 1) + r * 3_600_000).toISOString(),
          PrivateIpAddress: `10.0.${r % 4}.${10 + r}`,
          Placement: { AvailabilityZone: r % 3 ? 'us-east-1a' : 'us-east-1b', Tenancy: 'default' },
          Tags: [
            { Key: 'Name', Value: `web-${r}` },
            { Key: 'env', Value: r % 5 === 0 ? 'staging' : 'prod' },
          ],
        },
      ],
    }));
    const text = JSON.stringify({ Reservations: reservations });
    const note = noteOf(text, Math.floor(text.length * 0.2))!;
    const env = note.distributions?.find((d) => d.field === 'Instances[].Tags[Key=env].Value');
    expect(new Map(env?.values.map((v) => [v.value, v.count]))).toEqual(
      new Map([
        ['prod', 48],
        ['staging', 12],
      ]),
    );
  });

  it('reads no key as naming the items where one list holds two items of one name', () => {
    const records = Array.from({ length: 40 }, (_, i) => ({
      id: `job-${i}`,
      tags: [
        { name: 'team', value: i % 2 ? 'a' : 'b' },
        { name: 'team', value: i % 4 ? 'c' : 'd' },
        { name: 'tier', value: 'web' },
      ],
    }));
    const text = JSON.stringify(records);
    const note = noteOf(text, Math.floor(text.length * 0.2));
    const fields = note?.distributions?.map((d) => d.field) ?? [];
    expect(fields.some((field) => field.includes('[name='))).toBe(false);
  });

  it('tells only true counts, and only of names a path can say, whatever the keys (property)', () => {
    const name = fc.constantFrom('key', 'name', 'Key', 'type', '__proto__', 'k');
    const value = fc.constantFrom(
      'env',
      'tier',
      'a b',
      'x]y',
      'p=q',
      '__proto__',
      'constructor',
      'e\u0301',
      'zone',
    );
    let told = 0;
    fc.assert(
      fc.property(
        name,
        fc.uniqueArray(value, { minLength: 2, maxLength: 5 }),
        fc.integer({ min: 8, max: 60 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        (key, names, count, seed, share) => {
          const next = seeded(seed);
          const states = ['on', 'off', 'unknown'];
          const records = Array.from({ length: count }, (_, i) => ({
            id: `r${i}`,
            pairs: names
              .filter(() => next() < 0.85)
              .map((n) => ({ [key]: n, v: states[Math.floor(next() * next() * 3)]! })),
          }));
          const text = JSON.stringify({ records });
          const note = noteOf(text, Math.max(512, Math.floor(text.length * share)));
          for (const d of note?.distributions ?? []) {
            for (const field of [d.field, ...(d.alike ?? [])]) {
              const picked = /^pairs\[([^=]+)=([^\]]+)\]\.v$/.exec(field);
              if (!picked) continue;
              told++;
              expect(picked[1]).toBe(key);
              expect(names).toContain(picked[2]);
              expect(picked[2]).not.toMatch(/[\s=\]]/);
              const expected = truth(records, 'pairs', key, picked[2]!, 'v');
              const counts = new Map(d.values.map((v) => [v.value, v.count]));
              for (const [v, c] of counts) expect(expected.get(v)).toBe(c);
              const all = [...expected.values()].reduce((a, b) => a + b, 0);
              expect(d.present ?? records.length).toBe(all);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
    // The lists are told by name in many of the runs: the property is not vacuous.
    expect(told).toBeGreaterThan(30);
  });
});
