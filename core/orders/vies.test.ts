// The optional VIES check against a VIES-compatible server on loopback (real HTTP through the
// SSRF-safe fetcher): registered, not registered, and VIES down, which degrades to the checksum.
import { afterAll, expect, test } from 'bun:test';
import { decideVat } from './vat.ts';
import { createViesCheck } from './vies.ts';

const seen: string[] = [];
const vies = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(req) {
    const path = new URL(req.url).pathname;
    seen.push(path);
    if (path === '/rest-api/ms/FR/vat/40303265045') return Response.json({ isValid: true, userError: 'VALID' });
    if (path === '/rest-api/ms/BE/vat/0411905847') return Response.json({ isValid: false, userError: 'INVALID' });
    if (path === '/rest-api/ms/AT/vat/U13585627') return Response.json({ isValid: false, userError: 'MS_UNAVAILABLE' });
    return new Response('busy', { status: 503 });
  },
});
afterAll(() => vies.stop(true));
const check = createViesCheck({ baseUrl: `http://127.0.0.1:${vies.port}/rest-api`, userAgent: 'test', allowLoopback: true });

test('VIES confirms, refuses, or cannot answer (the checksum then stands)', async () => {
  expect(await decideVat('DE', 'FR', 'FR40303265045', check)).toMatchObject({ rule: 'reverse_charge', note: expect.stringContaining('Confirmed by VIES') });
  expect(await decideVat('DE', 'BE', 'BE0411905847', check)).toMatchObject({
    rule: 'eu_standard_rate',
    rate_basis_points: 2100,
    vat_number_valid: false,
    note: expect.stringContaining('not registered in VIES'),
  });
  expect(await decideVat('DE', 'AT', 'ATU13585627', check)).toMatchObject({
    rule: 'reverse_charge',
    note: expect.stringContaining('VIES could not be reached'),
  });
  expect(await decideVat('DE', 'NL', 'NL004495445B01', check)).toMatchObject({
    rule: 'reverse_charge',
    note: expect.stringContaining('VIES could not be reached'),
  });
  const down = createViesCheck({ baseUrl: 'http://127.0.0.1:1/rest-api', userAgent: 'test', allowLoopback: true });
  expect(await decideVat('DE', 'FR', 'FR40303265045', down)).toMatchObject({ rule: 'reverse_charge', note: expect.stringContaining('checksum only') });
  // Numbers that fail their checksum, domestic and non-EU sales never reach VIES.
  const before = seen.length;
  await decideVat('DE', 'FR', 'FR00000000001', check);
  await decideVat('DE', 'DE', 'DE136695976', check);
  await decideVat('DE', 'US', 'FR40303265045', check);
  expect(seen.length).toBe(before);
});
