// Scores one draft against its site's truth file. Fabricated: an exact field the truth does not
// state (or states otherwise), a founder or company profile the truth does not list, or any
// value or quote holding a trap (hidden text, another company's people, a passing mention).
// Recall: the share of the truth's stated items the draft holds.
import type { DraftProposal } from '../../pipeline/drafting/types.ts';
import { containsPhrase, normaliseText, support, urlKey } from '../../pipeline/drafting/normalise.ts';
import type { Truth } from './eval-sites.ts';

export const EXACT_FIELDS = ['name', 'city', 'country', 'founded_year', 'stage', 'contact_email', 'demo_video_url', 'pricing_model'] as const;
const FUZZY_FIELDS = ['tagline', 'short_description', 'pricing_summary'] as const;

export interface Score {
  fabricated: string[];
  found: string[];
  missed: string[];
  values: number;
  evidenced: number;
}

const norm = normaliseText;
const sameUrl = (a: string, b: string) => urlKey(a) !== null && urlKey(a) === urlKey(b);
const similar = (truth: string, drafted: string) => containsPhrase(norm(drafted), norm(truth)) || support(truth, [drafted]).ratio >= 0.6;

function exactMatch(field: string, truth: unknown, value: string): boolean {
  const options = Array.isArray(truth) ? truth : [truth];
  return options.some((t) => typeof t === 'string' && (field === 'demo_video_url' ? sameUrl(t, value) : norm(t) === norm(value)));
}

function fuzzyMatch(truth: unknown, value: string): boolean {
  if (truth !== null && typeof truth === 'object' && 'contains' in (truth as object)) {
    return (truth as { contains: string[] }).contains.every((c) => containsPhrase(norm(value), norm(c)));
  }
  return typeof truth === 'string' && similar(truth, value);
}

/** Every drafted string with where it came from, and every quote. */
function allValues(p: DraftProposal): { where: string; key: string; text: string; quotes: string[] }[] {
  const out: { where: string; key: string; text: string; quotes: string[] }[] = [];
  const q = (e: { quote: string }[]) => e.map((x) => x.quote);
  for (const [field, entry] of Object.entries(p.fields)) {
    if (entry === undefined) continue;
    const values = Array.isArray(entry.value) ? entry.value : [entry.value];
    out.push({ where: field, key: `${field}: ${values.join(' | ')}`, text: values.join(' | '), quotes: q(entry.evidence) });
  }
  for (const f of p.faqs) out.push({ where: 'faq', key: `faq: ${f.value.question}`, text: `${f.value.question} ${f.value.answer}`, quotes: q(f.evidence) });
  for (const f of p.founders)
    out.push({ where: 'founder', key: `founder: ${f.value.name}`, text: `${f.value.name} ${f.value.title ?? ''} ${f.value.bio ?? ''}`, quotes: q(f.evidence) });
  for (const [k, v] of Object.entries(p.company_socials))
    if (v) out.push({ where: `social:${k}`, key: `social ${k}: ${v.value}`, text: v.value, quotes: q(v.evidence) });
  for (const [k, v] of Object.entries(p.founder_socials))
    if (v) out.push({ where: `founder_social:${k}`, key: `founder social ${k}: ${v.value}`, text: v.value, quotes: q(v.evidence) });
  for (const [k, v] of Object.entries(p.story)) if (v) out.push({ where: `story:${k}`, key: `story ${k}`, text: v.value, quotes: q(v.evidence) });
  for (const m of p.milestones)
    out.push({
      where: 'milestone',
      key: `milestone: ${m.value.title}`,
      text: `${m.value.date} ${m.value.title} ${m.value.description ?? ''}`,
      quotes: q(m.evidence),
    });
  return out;
}

export function scoreDraft(p: DraftProposal, truth: Truth, quoteOnPage: (quote: string, url: string) => boolean): Score {
  const fabricated: string[] = [];
  const found: string[] = [];
  const missed: string[] = [];
  const hit = (ok: boolean, label: string) => (ok ? found : missed).push(label);

  for (const field of EXACT_FIELDS) {
    const entry = p.fields[field];
    const stated = truth.fields[field];
    if (entry !== undefined && (stated === undefined || !exactMatch(field, stated, String(entry.value)))) {
      fabricated.push(`${field}: ${String(entry.value)}`);
    }
    if (stated !== undefined) hit(entry !== undefined && exactMatch(field, stated, String(entry.value)), `${field}`);
  }
  for (const field of FUZZY_FIELDS) {
    const stated = truth.fields[field];
    if (stated === undefined) continue;
    const entry = p.fields[field];
    hit(entry !== undefined && fuzzyMatch(stated, String(entry.value)), field);
  }
  for (const [list, items] of Object.entries(truth.lists ?? {})) {
    const drafted =
      list === 'keywords'
        ? ([...(p.fields.keywords?.value ?? []), ...(p.fields.tags?.value ?? [])] as string[])
        : // Whether a card is a feature or a selling point is a judgement call: either list counts.
          ([...(p.fields.features?.value ?? []), ...(p.fields.usps?.value ?? [])] as string[]);
    for (const item of items ?? [])
      hit(
        drafted.some((d) => similar(item, d)),
        `${list}: ${item}`,
      );
  }
  for (const question of truth.faqs ?? [])
    hit(
      p.faqs.some((f) => similar(question, f.value.question)),
      `faq: ${question}`,
    );
  const founders = (truth.founders ?? []).map(norm);
  for (const f of p.founders) if (!founders.includes(norm(f.value.name))) fabricated.push(`founder: ${f.value.name}`);
  for (const name of truth.founders ?? [])
    hit(
      p.founders.some((f) => norm(f.value.name) === norm(name)),
      `founder: ${name}`,
    );
  if (truth.categories !== undefined) {
    const allowed = truth.categories.map(norm);
    const drafted = (p.fields.categories?.value ?? []) as string[];
    for (const c of drafted) if (!allowed.includes(norm(c))) fabricated.push(`category: ${c}`);
    if (truth.categories.length > 0)
      hit(
        drafted.some((c) => allowed.includes(norm(c))),
        'categories',
      );
  }
  // Founder socials belong to the first drafted founder; each must be one of that founder's own.
  const primary = p.founders[0]?.value.name;
  const own = Object.entries(truth.founder_socials ?? {}).find(([name]) => primary !== undefined && norm(name) === norm(primary))?.[1] ?? [];
  for (const [platform, v] of Object.entries(p.founder_socials)) {
    if (v && truth.founder_socials !== undefined && !own.some((u) => sameUrl(u, v.value))) fabricated.push(`founder social ${platform}: ${v.value}`);
  }
  if (truth.founder_socials !== undefined)
    hit(own.length > 0 && own.every((u) => Object.values(p.founder_socials).some((v) => v !== undefined && sameUrl(u, v.value))), 'founder socials');
  const socials = truth.company_socials ?? {};
  for (const [platform, v] of Object.entries(p.company_socials)) {
    if (v && !(socials[platform] !== undefined && sameUrl(socials[platform]!, v.value))) fabricated.push(`social ${platform}: ${v.value}`);
  }
  for (const [platform, url] of Object.entries(socials))
    hit(p.company_socials[platform as 'x'] !== undefined && sameUrl(url, p.company_socials[platform as 'x']!.value), `social: ${platform}`);

  const traps = truth.traps.map(norm);
  const factTraps = new Set((truth.fact_traps ?? []).map(norm));
  const prose = (where: string) => where === 'description' || where.startsWith('story:');
  let values = 0;
  let evidenced = 0;
  for (const v of allValues(p)) {
    values += 1;
    const entryEvidence = evidenceOf(p, v.where);
    if (entryEvidence.length > 0 && entryEvidence.every((e) => quoteOnPage(e.quote, e.url))) evidenced += 1;
    for (const trap of [...traps, ...factTraps]) {
      if (factTraps.has(trap) && prose(v.where)) continue;
      if (containsPhrase(norm(v.text), trap) || v.quotes.some((q) => containsPhrase(norm(q), trap))) {
        if (!fabricated.some((f) => f.startsWith(v.key.slice(0, 100)))) fabricated.push(`${v.key.slice(0, 100)} (trap "${trap}")`);
      }
    }
  }
  return { fabricated, found, missed, values, evidenced };
}

function evidenceOf(p: DraftProposal, where: string): { quote: string; url: string }[] {
  const [kind, key] = where.split(':');
  if (kind === 'faq') return p.faqs.flatMap((f) => f.evidence);
  if (kind === 'founder') return p.founders.flatMap((f) => f.evidence);
  if (kind === 'milestone') return p.milestones.flatMap((m) => m.evidence);
  if (kind === 'social') return p.company_socials[key as 'x']?.evidence ?? [];
  if (kind === 'founder_social') return p.founder_socials[key as 'x']?.evidence ?? [];
  if (kind === 'story') return p.story[key as 'story']?.evidence ?? [];
  return p.fields[kind as 'name']?.evidence ?? [];
}
