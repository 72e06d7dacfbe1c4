// Words and hosts both the extractive drafter and the evidence check rely on, kept in one
// place so what the drafter proposes is exactly what the check accepts.
import type { SocialPlatform } from '../../core/drafts/fields.ts';

// An amount next to a currency. A number-first amount must start a digit run (the lookbehind),
// so a long run of digits is scanned once rather than from every position.
const AMOUNTS = /(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf|cad|aud)\b)\s?(\d[\d.,]*)|(?<![\d.,])(\d[\d.,]*)\s?(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf)\b)/gi;
const amounts = (t: string) => [...t.matchAll(AMOUNTS)].map((m) => m[1] ?? m[2] ?? '');
const MONEY = { test: (t: string) => amounts(t).length > 0 };
const NONZERO_MONEY = { test: (t: string) => amounts(t).some((a) => /[1-9]/.test(a)) };
// "Free" as in a free plan, not a free trial of a paid one ("free trial", "try it free for 30
// days", "free for 14 days"); "$0" is a free plan too.
const FREE_WORD = /\bfree\b(?!\s+trial)(?!\s+for\s+(?:\d+|one|a|two|seven|fourteen|thirty)\s+(?:days?|weeks?|months?)\b)/i;
const ZERO_PRICE = /[$€£]\s?0(?:[.,]0+)?(?![.,]?\d)/;
const isFree = (t: string) => FREE_WORD.test(t) || ZERO_PRICE.test(t);
const RECURRING =
  /\bsubscription\b|\bper\s+(?:month|year|user|seat|member)\b|\/\s?(?:mo|month|yr|year|user|seat)\b|\bmonthly\b|\bannual(?:ly)?\b|\byearly\b|\bbilled\b/i;
const ONE_TIME = /\bone[- ]time\b|\blifetime\b|\bpay once\b/i;
const OPEN_SOURCE = /\bopen[- ]source\b/i;
const CONTACT = /\bcontact (?:us|sales)\b|\bcustom pricing\b|\bget a quote\b/i;

/** Pricing models the extractive drafter names, each with the words that must be on the page. */
export const PRICING_MODELS: Record<string, (text: string) => boolean> = {
  Freemium: (t) => /\bfreemium\b/i.test(t) || (isFree(t) && NONZERO_MONEY.test(t)),
  Free: (t) => isFree(t),
  Subscription: (t) => RECURRING.test(t),
  'One-time payment': (t) => ONE_TIME.test(t),
  Paid: (t) => NONZERO_MONEY.test(t) || /\bpaid\b/i.test(t),
  'Open source': (t) => OPEN_SOURCE.test(t),
  'Free trial': (t) => /\bfree trial\b/i.test(t),
  'Contact for pricing': (t) => CONTACT.test(t),
};

/** The model a pricing text states, from its own words; null when it states none. */
export function pricingModelOf(text: string): string | null {
  const free = isFree(text);
  const paid = NONZERO_MONEY.test(text);
  if (/\bfreemium\b/i.test(text) || (free && paid)) return 'Freemium';
  if (paid && RECURRING.test(text)) return 'Subscription';
  if (paid && ONE_TIME.test(text)) return 'One-time payment';
  if (paid) return 'Paid';
  if (free) return 'Free';
  if (OPEN_SOURCE.test(text)) return 'Open source';
  if (CONTACT.test(text)) return 'Contact for pricing';
  return null;
}

export const hasPrice = (text: string) => MONEY.test(text);

/** Words that tie a year in the same quote to the company's founding. */
export const FOUNDING_WORDS =
  /\b(?:found(?:ed|ing|ers?)?|co-?found(?:ed|ers?)?|established|est\.?|since|incorporated|started|began|begun|launched|created|born|built|gegründet|gegr\.|seit|ins leben gerufen)(?![\p{L}])/iu;

const VIDEO_HOSTS = ['youtube.com', 'youtube-nocookie.com', 'youtu.be', 'vimeo.com', 'loom.com', 'wistia.com', 'wistia.net', 'vidyard.com', 'dailymotion.com'];

export function hostIs(host: string, domain: string): boolean {
  const h = host.toLowerCase();
  return h === domain || h.endsWith(`.${domain}`);
}

/** A link to a video: a known video host's video page or embed, or a video file. */
export function isVideoUrl(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  if (/\.(mp4|webm|mov|m4v|ogv)$/i.test(url.pathname)) return true;
  if (!VIDEO_HOSTS.some((d) => hostIs(url.hostname, d))) return false;
  if (hostIs(url.hostname, 'youtube.com') || hostIs(url.hostname, 'youtube-nocookie.com')) {
    return /^\/(watch|embed\/|shorts\/|live\/)/.test(url.pathname);
  }
  return url.pathname.length > 1;
}

const PLATFORM_HOSTS: [SocialPlatform, string[]][] = [
  ['linkedin', ['linkedin.com']],
  ['x', ['x.com', 'twitter.com']],
  ['facebook', ['facebook.com', 'fb.com', 'fb.me']],
  ['instagram', ['instagram.com']],
  ['tiktok', ['tiktok.com']],
  ['youtube', ['youtube.com']],
  ['threads', ['threads.net', 'threads.com']],
  ['pinterest', ['pinterest.com']],
  ['github', ['github.com']],
  ['reddit', ['reddit.com']],
  ['producthunt', ['producthunt.com']],
  ['medium', ['medium.com']],
];

// Share buttons, intents and search pages link to the platform but not to anyone's profile.
const NOT_A_PROFILE = /^\/(?:intent|share|sharer|sharearticle|dialog|home|search|hashtag|login|signup|watch|embed|results|explore|i\/|plugins)/i;

/** The platform a profile link belongs to, or null when it is not a profile on a known platform. */
export function socialPlatformOf(href: string): SocialPlatform | null {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  const path = url.pathname.replace(/\/+$/, '');
  if (path === '' || NOT_A_PROFILE.test(path) || /\/share/i.test(path)) return null;
  for (const [platform, hosts] of PLATFORM_HOSTS) {
    if (!hosts.some((d) => hostIs(url.hostname, d))) continue;
    // The platform's own pages (its product, pricing and policy pages, its docs) are no one's profile.
    if (OWN_PAGES[platform]?.test(path)) return null;
    // On GitHub a profile is an account or a repository; deeper paths are a repository's pages (its CI, issues).
    if (platform === 'github' && (!/^(?:www\.)?github\.com$/i.test(url.hostname) || path.split('/').length > 3)) return null;
    return platform;
  }
  return null;
}

const OWN_PAGES: Partial<Record<SocialPlatform, RegExp>> = {
  github:
    /^\/(?:features|pricing|enterprise|team|marketplace|topics|sponsors|site-policy|about|security|customer-stories|readme|solutions|resources|trending|collections|events|orgs|settings|apps|contact|signup|login|join|new)(?:\/|$)/i,
  linkedin: /^\/(?:legal|help|feed|jobs|learning|premium|pulse|signup|login)(?:\/|$)/i,
  x: /^\/(?:tos|privacy|settings|explore|notifications|messages)(?:\/|$)/i,
};

/** Whether a link may stand for the platform: its host must be the platform's (any http(s)
 * link for website and custom). */
export function linkFitsPlatform(href: string, platform: SocialPlatform): boolean {
  if (platform === 'website' || platform === 'custom') {
    try {
      const url = new URL(href);
      return url.protocol === 'https:' || url.protocol === 'http:';
    } catch {
      return false;
    }
  }
  return socialPlatformOf(href) === platform;
}

/** A LinkedIn personal profile (/in/...) is a person's, not a company's. */
export const isPersonalProfile = (href: string) => /linkedin\.com\/in\//i.test(href);

export const STAGES: [RegExp, string][] = [
  [/\bpublic beta\b/i, 'Public beta'],
  [/\bprivate beta\b/i, 'Private beta'],
  [/\bclosed beta\b/i, 'Closed beta'],
  [/\bopen beta\b/i, 'Open beta'],
  [/\bearly access\b/i, 'Early access'],
  [/\bgenerally available\b/i, 'Generally available'],
  [/\bbeta\b/i, 'Beta'],
  [/\balpha\b/i, 'Alpha'],
];
