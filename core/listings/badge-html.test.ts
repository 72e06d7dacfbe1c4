import { describe, expect, test } from 'bun:test';
import { findBadge } from './badge-html.ts';

const site = 'https://dir.example';
const badge = (wrap = (s: string) => s, img = 'width="250" height="54"') =>
  `<html><body><p>Hi</p>${wrap(`<a href="${site}/listings/lumen" target="_blank"><img src="${site}/badges/lumen/listed.svg?shape=pill&mode=dark&size=s" alt="Lumen" ${img}></a>`)}</body></html>`;

describe('findBadge', () => {
  test('finds any badge image of the listing inside a link to its profile', async () => {
    expect(await findBadge(badge(), site, 'lumen')).toEqual({ found: true });
    expect(await findBadge(badge().replace('/listings/lumen"', '/listings/lumen/"'), site, 'lumen')).toEqual({ found: true });
    expect(await findBadge(badge().replace('listed.svg', 'launched.svg'), site, 'lumen')).toEqual({ found: true });
  });

  test("a link elsewhere, another listing's badge or a bare image is not our badge", async () => {
    expect(await findBadge(badge().replace('/listings/lumen', '/listings/other'), site, 'lumen')).toEqual({ found: false, reason: 'badge_not_found' });
    expect(await findBadge(badge().replace('/badges/lumen/', '/badges/other/'), site, 'lumen')).toEqual({ found: false, reason: 'badge_not_found' });
    expect(await findBadge(`<img src="${site}/badges/lumen/listed.svg">`, site, 'lumen')).toEqual({ found: false, reason: 'badge_not_found' });
    expect(await findBadge('<p>nothing</p>', site, 'lumen')).toEqual({ found: false, reason: 'badge_not_found' });
  });

  test('a hidden badge does not count', async () => {
    for (const wrap of [
      (s: string) => `<div hidden>${s}</div>`,
      (s: string) => `<div style="display: none">${s}</div>`,
      (s: string) => `<div style="color:red;visibility:hidden">${s}</div>`,
      (s: string) => `<div style="opacity:0">${s}</div>`,
      (s: string) => `<template>${s}</template>`,
      (s: string) => `<noscript>${s}</noscript>`,
      (s: string) => `<span aria-hidden="true">${s}</span>`,
      (s: string) => `<!-- ${s} -->`,
    ]) {
      expect((await findBadge(badge(wrap), site, 'lumen')).found).toBe(false);
    }
    expect(await findBadge(badge(undefined, 'width="0" height="0"'), site, 'lumen')).toEqual({ found: false, reason: 'badge_hidden' });
    expect(
      await findBadge(
        badge((s) => `<div style="display:none">${s}</div>`),
        site,
        'lumen',
      ),
    ).toEqual({ found: false, reason: 'badge_hidden' });
  });
});
