// Features and USPs from the sections their headings announce, and categories from the
// list_categories names the site's own words use.
import type { Element } from 'cheerio';
import type { Evidence } from '../../../core/drafts/fields.ts';
import type { Proposed } from '../types.ts';
import { LIST_ITEM_MAX, LIST_MAX_ITEMS } from '../../../core/drafts/bounds.ts';
import { containsPhrase, normaliseText } from '../normalise.ts';
import { blockLines, type PageModel } from '../page-model.ts';
import { nodesOf, PRODUCT } from './json-ld.ts';
import { wordCount, type Sources } from './sources.ts';
import { cardGroups } from './cards.ts';

const FEATURE_HEADING = /\bfeatures?\b|capabilit|what you get|everything you need|what'?s included|what .{1,30} can do|key benefits/i;
const USP_HEADING =
  /^why\s+\S+(?:\s+\S+)?\??$|\bwhy\b.{0,40}\b(choose|pick|use|switch|love|teams|us)\b|what makes .{1,30} (different|unique|special)|\bunlike\b|\badvantages?\b|\bbenefits\b|^warum\s+\S+(?:\s+\S+)?\??$|\b(?:ihre|deine|unsere)\s+vorteile\b|^vorteile\b/i;

/** List items of a section, or its sub-headings when it has no list. */
function sectionItems(src: Sources, model: PageModel, heading: Element): Evidence[] {
  const $ = model.$;
  const nodes = src.section(model, heading);
  const pick = (selector: string) => nodes.flatMap((el) => $(el).find(selector).addBack(selector).toArray());
  let items = pick('li');
  if (items.length === 0) items = pick('h3, h4, h5, dt');
  return items
    .map((el) => blockLines(el)[0] ?? '')
    .filter((t) => t !== '' && t.length <= LIST_ITEM_MAX && wordCount(t) <= 30)
    .map((quote) => ({ quote, url: model.page.url }));
}

function listFrom(src: Sources, pattern: RegExp, exclude: Set<string>): Proposed<string[]> | null {
  const evidence: Evidence[] = [];
  for (const { model, el } of src.headings(pattern, src.ordered('home', 'other', 'pricing'))) {
    for (const item of sectionItems(src, model, el)) {
      const key = normaliseText(item.quote);
      if (exclude.has(key) || evidence.length >= LIST_MAX_ITEMS) continue;
      exclude.add(key);
      evidence.push(item);
    }
    if (evidence.length >= 3) break;
  }
  return evidence.length > 0 ? { value: evidence.map((e) => e.quote), evidence } : null;
}

/** Titles of the first group of feature cards (repeated same-shape blocks of a title and its
 * text) on the home page or other product pages: selling points when the group's heading
 * announces them, features otherwise. */
function fromCards(src: Sources, usps: boolean, exclude: Set<string>): Proposed<string[]> | null {
  const pages = src.ordered('home', 'other').filter((m) => ['home', 'other'].includes(src.kind(m)));
  for (const model of pages) {
    for (const group of cardGroups(model, 3, { bare: true })) {
      if (group.kind !== 'features' || (group.heading !== null && USP_HEADING.test(group.heading)) !== usps) continue;
      // A bare list of titles is features or selling points only when its heading says so.
      if (group.bare && !(usps || FEATURE_HEADING.test(group.heading ?? ''))) continue;
      const evidence = group.cards
        .map((c) => c.title)
        .filter((t) => t.quote.length <= LIST_ITEM_MAX && !exclude.has(normaliseText(t.quote)))
        .slice(0, LIST_MAX_ITEMS);
      if (evidence.length === 0) continue;
      for (const e of evidence) exclude.add(normaliseText(e.quote));
      return { value: evidence.map((e) => e.quote), evidence };
    }
  }
  return null;
}

export function extractFeatures(src: Sources, used: Set<string>): Proposed<string[]> | null {
  const fromSections = listFrom(src, FEATURE_HEADING, used);
  if (fromSections !== null) return fromSections;
  const cards = fromCards(src, false, used);
  if (cards !== null) return cards;
  // schema.org featureList, where each item is also on the page.
  const evidence: Evidence[] = [];
  for (const { node } of nodesOf(src.models, PRODUCT)) {
    const list = node.featureList;
    const items = Array.isArray(list) ? list : typeof list === 'string' ? list.split(/\n|,/) : [];
    for (const item of items) {
      if (typeof item !== 'string' || item.trim() === '' || evidence.length >= LIST_MAX_ITEMS) continue;
      const line = src.findLine(item.trim());
      if (line !== null) evidence.push({ quote: item.trim(), url: line.url });
    }
  }
  return evidence.length > 0 ? { value: evidence.map((e) => e.quote), evidence } : null;
}

export function extractUsps(src: Sources, used: Set<string>): Proposed<string[]> | null {
  return listFrom(src, USP_HEADING, used) ?? fromCards(src, true, used);
}

function variants(name: string): string[] {
  const base = normaliseText(name);
  const out = new Set([base, base.replace(/ & /g, ' and '), base.replace(/ and /g, ' & ')]);
  for (const v of [...out]) {
    if (v.endsWith('s')) out.add(v.slice(0, -1));
    else out.add(`${v}s`);
  }
  return [...out];
}

/** Up to three list_categories names the site uses, the most used first (the home page's
 * headings weigh most), each quoted where it is used. A name used once off the home page is
 * not enough. */
export function extractCategories(src: Sources, categoryNames: readonly string[]): Proposed<string[]> | null {
  const scored: { name: string; score: number; evidence: Evidence }[] = [];
  for (const name of categoryNames) {
    const forms = variants(name);
    let score = 0;
    let evidence: Evidence | null = null;
    for (const model of src.models) {
      const home = model === src.home;
      if (!forms.some((f) => containsPhrase(model.norm, f))) continue;
      for (let i = 0; i < model.lines.length; i++) {
        const line = model.lines[i]!;
        const norm = model.normLines[i]!;
        const form = forms.find((f) => containsPhrase(norm, f));
        if (form === undefined) continue;
        score += home ? 2 : 1;
        if (evidence === null || (home && line.length < evidence.quote.length)) evidence = { quote: line.length <= 400 ? line : form, url: model.page.url };
      }
      if (home) {
        for (const { text, rank } of model.headings) {
          if (rank <= 2 && forms.some((f) => containsPhrase(normaliseText(text), f))) score += 2;
        }
      }
    }
    if (evidence !== null && score >= 2) scored.push({ name, score, evidence });
  }
  scored.sort((a, b) => b.score - a.score);
  const top = scored.slice(0, 3);
  return top.length > 0 ? { value: top.map((s) => s.name), evidence: top.map((s) => s.evidence) } : null;
}
