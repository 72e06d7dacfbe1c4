export const SCOPES = ['account:read', 'listings:write', 'orders:write'] as const;
export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'account:read': 'Read your account, drafts, listings, claims and orders',
  'listings:write': 'Create and change your drafts, listings, claims, founder story and interview',
  'orders:write': 'Price orders and start checkouts (payment always happens on our checkout page)',
};

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);

/** Parses a comma- or space-separated scope list; returns the unknown names too. */
export function parseScopes(raw: string): { scopes: Scope[]; unknown: string[] } {
  const parts = raw.split(/[\s,]+/).filter(Boolean);
  const scopes = [...new Set(parts.filter(isScope))];
  return { scopes, unknown: parts.filter((p) => !isScope(p)) };
}
