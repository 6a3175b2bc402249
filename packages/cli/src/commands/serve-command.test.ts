import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BINARY, binaryBuilt, runBinary } from '../test-support/run-binary.js';

let child: ChildProcess | undefined;
afterEach(() => {
  child?.kill('SIGTERM');
  child = undefined;
});

function serve(args: string[]): Promise<string> {
  child = spawn(process.execPath, [BINARY, 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child!.stdout!.setEncoding('utf8');
    child!.stdout!.on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.trim());
    });
    child!.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
}

describe.skipIf(!binaryBuilt())('compaction serve (built binary)', () => {
  it('serves the API and the page on loopback with a bearer token, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-serve-'));
    writeFileSync(join(dir, 'log.txt'), 'alpha\nbeta\ngamma\n');
    const stored = JSON.parse(
      runBinary(['store', '--session', 'sess-a.jsonl', '--id', 'call_1', 'log.txt'], { cwd: dir })
        .stdout,
    );
    const url = await serve(['--dir', dir, '--token', 'tkn']);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const auth = { authorization: 'Bearer tkn' };
    expect((await fetch(`${url}api/sessions`)).status).toBe(401);
    expect(await (await fetch(`${url}api/sessions`, { headers: auth })).json()).toEqual({
      sessions: ['sess-a'],
    });
    const list = (await (
      await fetch(`${url}api/sessions/sess-a/artifacts`, { headers: auth })
    ).json()) as { artifacts: Array<Record<string, unknown>> };
    expect(list.artifacts[0]).toMatchObject({ id: stored.id, path: stored.file });
    const page = await (
      await fetch(`${url}api/artifacts/${stored.id}?offset=2&limit=1`, { headers: auth })
    ).json();
    expect(page).toMatchObject({ text: 'beta\n', next: { line: 3, column: 1 } });
    expect(
      (await fetch(`${url}api/artifacts/%2e%2e%2fsess-a.jsonl`, { headers: auth })).status,
    ).toBe(404);
    expect(await (await fetch(url)).text()).toContain('<title>Compaction artifacts</title>');
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = undefined;
  });

  it('keeps answering while a catastrophic regex search runs, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-serve-'));
    writeFileSync(join(dir, 'evil.txt'), `${'a'.repeat(34)}!\n`.repeat(20_000));
    const stored = JSON.parse(
      runBinary(['store', '--session', 'e.jsonl', '--id', 'c', 'evil.txt'], { cwd: dir }).stdout,
    );
    const url = await serve(['--dir', dir]);
    const searches = ['(a|a)+$', '((a+))+$', '(\\w|[a-z])+$', '(a|aa)+$', '.*.*.*.*x'].map(
      (pattern) =>
        fetch(
          `${url}api/artifacts/${stored.id}/search?regex=true&pattern=${encodeURIComponent(pattern)}`,
        ),
    );
    expect((await fetch(`${url}api/sessions`)).status).toBe(200);
    for (const answer of await Promise.all(searches)) {
      expect(answer.status).toBe(200);
      expect(((await answer.json()) as { matches: unknown[] }).matches).toEqual([]);
    }
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child!.kill('SIGTERM');
    expect(await exited).toBe(0);
    child = undefined;
  });

  it('refuses bad usage with exit 2, and a public interface without a token', () => {
    expect(runBinary(['serve']).status).toBe(2);
    const open = runBinary(['serve', '--dir', '.', '--host', '0.0.0.0']);
    expect(open.status).toBe(2);
    expect(open.stderr).toContain('without --token would expose every stored result');
    expect(runBinary(['serve', '--dir', '.', '--port', '70000']).status).toBe(2);
  });
});
