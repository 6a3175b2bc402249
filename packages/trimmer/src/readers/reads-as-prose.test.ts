import { describe, expect, it } from 'vitest';
import { readsAsProse } from './reads-as-prose.js';

const prose = (value: string) => readsAsProse(value, 0, value.length);

describe('readsAsProse', () => {
  it.each([
    'Back-off restarting failed container',
    'kubelet has sufficient memory available',
    'Applying manifest at "/var/lib/rancher/k3s/server/manifests/coredns.yaml"',
    'MIT Kerberos 5 (aka krb5) before 1.17.2 allows unbounded recursion',
    'おはようございますん♪ SSDSのDVDが朝一で届いた',
    '元野球部マネージャー❤︎…最高の夏をありがとう',
    '세계 여러분 안녕하세요',
    // A line a service logged as JSON, as written in a JSON string (escaped) or not.
    '{\\"level\\":\\"error\\",\\"msg\\":\\"payment provider returned 502\\",\\"route\\":\\"/api/pay\\"}',
    '{"level":"info","msg":"cache refreshed","route":"/api/cart","latency_ms":63,"request_id":"req-0"}',
  ])('reads %j as prose', (value) => {
    expect(prose(value)).toBe(true);
  });

  it.each([
    'Sat Feb 16 13:40:25 +0000 2013',
    '2025-09-11T08:15:00Z',
    'https://api.github.com/repos/octokit/rest.js/issues/42',
    '/var/lib/rancher/k3s/server/manifests/metrics-server/auth-delegator.yaml',
    'cd30c57f-b445-437f-9473-f13343124030',
    'sha256:c2274a1a0e2786ee91d6b1a0ea7cbcb2e4a8b1f5',
    '<a href="http://twitter.com/download/iphone" rel="nofollow">Twitter for iPhone</a>',
    'coredns-64fd4b4794-p72lf',
    'Running',
    '',
    '\ud83d\ude00\ud83d\ude00 \ud83d\ude00',
    // A short object under a key says no more than the id it holds.
    '{"dobs.csi.digitalocean.com":"219734582"}',
    '{"a":1,"b":[2,3],"c":{"d":4},"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11}',
  ])('does not read %j as prose', (value) => {
    expect(prose(value)).toBe(false);
  });

  it('looks only at the range it is given', () => {
    const text = 'id=42 then some words follow here';
    expect(readsAsProse(text, 0, 5)).toBe(false);
    expect(readsAsProse(text, 6, text.length)).toBe(true);
  });
});
