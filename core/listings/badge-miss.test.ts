import { describe, expect, test } from 'bun:test';
import { describeMiss } from './badge-html.ts';

// What "Check now" tells a maker whose homepage has no visible badge.
const site = 'https://dir.example';
const home = 'https://lumen.example/';

describe('describeMiss', () => {
  test('no link to the profile: says so and counts the other links', async () => {
    const html = '<a href="/pricing">Pricing</a><a href="https://x.com/lumen">X</a><template><a href="/hidden">no</a></template>';
    expect(await describeMiss(html, site, 'lumen', home, 'badge_not_found')).toBe(`no link to /listings/lumen on ${home}; found 2 other links`);
    expect(await describeMiss('<p>nothing</p>', site, 'lumen', home, 'badge_not_found')).toBe(`no link to /listings/lumen on ${home}; found 0 other links`);
  });

  test('a link to the profile without our image, or a hidden badge', async () => {
    const text = `<a href="${site}/listings/lumen">Listed on Dir</a>`;
    expect(await describeMiss(text, site, 'lumen', home, 'badge_not_found')).toBe(
      `${home} links to /listings/lumen once, but no link holds our badge image (${site}/badges/lumen/...)`,
    );
    expect(await describeMiss(text, site, 'lumen', home, 'badge_hidden')).toContain(`our badge on ${home} links to /listings/lumen but is hidden`);
  });
});
