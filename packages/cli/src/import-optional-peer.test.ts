import { describe, expect, it } from 'vitest';
import { importOptionalPeer, MissingPeerError } from './import-optional-peer.js';

const MISSING = 'compaction-peer-that-is-not-installed';

describe('importOptionalPeer', () => {
  it('names the missing peer, how to install it and how to run with npx', async () => {
    const error = await importOptionalPeer(() => import(/* @vite-ignore */ MISSING), {
      feature: '--frobnicate',
      packages: [MISSING, 'other-peer'],
    }).catch((e: unknown) => e);
    expect(MissingPeerError.isInstance(error)).toBe(true);
    const { message } = error as MissingPeerError;
    expect(message).toContain(`--frobnicate needs ${MISSING}, an optional peer of @compaction/cli`);
    expect(message).toContain(`npm install ${MISSING} other-peer beside @compaction/cli`);
    expect(message).toContain(`npx -y -p @compaction/cli -p ${MISSING} -p other-peer compaction`);
    expect(message).not.toContain('\n');
  });

  it('rethrows any other failure as it is, a missing unrelated package included', async () => {
    const boom = new Error('boom');
    await expect(
      importOptionalPeer(() => Promise.reject(boom), { feature: 'x', packages: ['openai'] }),
    ).rejects.toBe(boom);
    const unrelated = await importOptionalPeer(() => import(/* @vite-ignore */ MISSING), {
      feature: 'x',
      packages: ['openai'],
    }).catch((e: unknown) => e);
    expect(MissingPeerError.isInstance(unrelated)).toBe(false);
  });

  it('returns the module when the peer is there', async () => {
    const loaded = await importOptionalPeer(() => import('node:path'), {
      feature: 'x',
      packages: ['node:path'],
    });
    expect(typeof loaded.join).toBe('function');
  });
});
