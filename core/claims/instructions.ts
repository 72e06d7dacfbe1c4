// What a claimant publishes for each method, and where we look for it.
export const CLAIM_METHODS = ['dns', 'meta', 'file', 'email'] as const;
export type ClaimMethod = (typeof CLAIM_METHODS)[number];

/** A pending claim (and its mailed link) expires after this many days. */
export const CLAIM_TTL_DAYS = 7;

export const DNS_LABEL = '_listing-directory';
export const META_NAME = 'listing-directory-verification';
export const FILE_PATH = '/.well-known/listing-directory-verification.txt';
export const verificationValue = (token: string) => `listing-directory-verification=${token}`;

/** The domain claims are made under: the listing's, without a leading www. */
export const claimDomain = (domain: string) => domain.toLowerCase().replace(/^www\./, '');

/** An address at the domain or one of its subdomains. */
export function emailAtDomain(email: string, domain: string): boolean {
  const host = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const d = claimDomain(domain);
  return host === d || host.endsWith(`.${d}`);
}

export interface Instructions {
  summary: string;
  dns: { type: 'TXT'; name: string; value: string } | null;
  meta: { tag: string; page: string } | null;
  file: { path: string; url: string; content: string } | null;
  email: { sent_to: string } | null;
}

export function instructionsFor(c: { method: ClaimMethod; token: string; email: string | null; domain: string; url: string }): Instructions {
  const none = { dns: null, meta: null, file: null, email: null };
  switch (c.method) {
    case 'dns': {
      const name = `${DNS_LABEL}.${claimDomain(c.domain)}`;
      return {
        ...none,
        summary: `Add a DNS TXT record named ${name} with the value ${verificationValue(c.token)}, then call verify_claim.`,
        dns: { type: 'TXT', name, value: verificationValue(c.token) },
      };
    }
    case 'meta': {
      const tag = `<meta name="${META_NAME}" content="${c.token}">`;
      return { ...none, summary: `Paste ${tag} into the <head> of your homepage ${c.url}, then call verify_claim.`, meta: { tag, page: c.url } };
    }
    case 'file': {
      const url = new URL(FILE_PATH, c.url).href;
      return {
        ...none,
        summary: `Publish a file at ${url} whose content is ${verificationValue(c.token)}, then call verify_claim.`,
        file: { path: FILE_PATH, url, content: verificationValue(c.token) },
      };
    }
    case 'email':
      return { ...none, summary: `We sent a link to ${c.email}. Open it and press "Confirm claim"; the claim is verified then.`, email: { sent_to: c.email! } };
  }
}
