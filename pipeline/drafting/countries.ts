// ISO 3166-1 alpha-2 codes and the English names a site states them by. The names come from
// the runtime's ICU data (Intl.DisplayNames) rather than a hand-kept table; a few common
// short and native forms are added.
import { normaliseText } from './normalise.ts';

const ALIASES: Record<string, string[]> = {
  US: ['usa', 'u.s.', 'u.s.a.', 'united states of america', 'the united states', 'the us'],
  GB: ['uk', 'u.k.', 'great britain', 'britain', 'england', 'scotland', 'wales', 'northern ireland', 'the uk'],
  NL: ['the netherlands', 'holland', 'nederland'],
  DE: ['deutschland'],
  AT: ['österreich'],
  CH: ['schweiz', 'suisse', 'svizzera'],
  ES: ['españa'],
  IT: ['italia'],
  CZ: ['czech republic'],
  KR: ['korea', 'republic of korea'],
  AE: ['uae', 'u.a.e.'],
  TR: ['turkey', 'türkiye'],
  CI: ["cote d'ivoire", 'ivory coast'],
  RU: ['russian federation'],
  VN: ['viet nam'],
  MK: ['macedonia'],
  PH: ['the philippines'],
};

// Codes ICU still names that are no current ISO 3166-1 country: withdrawn (CS, YU, SU, AN) or
// only reserved (UK, AC, CP, DG, EA, IC, TA). Deprecated ones ICU maps on (DD -> DE) are caught
// by the canonical-form test below.
const NOT_ISO = new Set(['CS', 'YU', 'SU', 'AN', 'UK', 'AC', 'CP', 'DG', 'EA', 'IC', 'TA']);

let byCode: Map<string, string[]> | null = null;
let byName: Map<string, string> | null = null;

function build(): void {
  const display = new Intl.DisplayNames(['en'], { type: 'region' });
  byCode = new Map();
  byName = new Map();
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of letters) {
    for (const b of letters) {
      const code = a + b;
      if (NOT_ISO.has(code)) continue;
      let name: string | undefined;
      try {
        if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
        name = display.of(code);
      } catch {
        continue;
      }
      // Unassigned codes come back as themselves or as "Unknown Region"; EU, UN, QO and
      // friends are not countries.
      if (name === undefined || name === code || /unknown|outlying|european union|united nations|eurozone|pseudo/i.test(name)) continue;
      const names = [name, ...(ALIASES[code] ?? [])].map(normaliseText);
      byCode.set(code, names);
      for (const n of names) if (!byName.has(n)) byName.set(n, code);
    }
  }
}

/** The code's names in normal form (see normaliseText), or null for a code that is no country. */
export function countryNames(code: string): string[] | null {
  if (byCode === null) build();
  return byCode!.get(code.toUpperCase()) ?? null;
}

/** The code of a stated country name ("Germany", "the UK"), or null. */
export function countryCode(name: string): string | null {
  if (byName === null) build();
  const n = normaliseText(name);
  return byName!.get(n) ?? byName!.get(n.replace(/\.$/, '')) ?? null;
}

export function isCountryCode(code: string): boolean {
  return /^[A-Za-z]{2}$/.test(code) && countryNames(code) !== null;
}
