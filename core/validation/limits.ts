// Limits every decoded body (JSON on REST and MCP, forms) is held to before a schema looks at it.
// A schema validator walks values recursively: 50,000 nested arrays overflow its stack (a 500), so
// shape is checked here first, iteratively. Strings must be text PostgreSQL and JSON can carry:
// no U+0000, no lone UTF-16 surrogate (neither can be stored or encoded as UTF-8).

export const BODY_LIMITS = {
  /** Nesting depth of arrays and objects (the deepest schema of the API needs 4). */
  depth: 32,
  /** Items of one array, or keys of one object. */
  items: 1_000,
  /** Characters of one string (the longest field of the API takes 20,000). */
  string: 100_000,
  /** Values in the whole body. */
  values: 50_000,
} as const;

export interface BodyIssue {
  field: string;
  message: string;
}

// A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be accepted as text, or null. */
export function textIssue(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'must not contain a lone UTF-16 surrogate (invalid Unicode)';
  return null;
}

/**
 * Checks a decoded value without recursion. Returns the first issues found (at most 20), naming
 * each by its dotted path. Stops at the first structural excess, since going further is the cost
 * the limit exists to avoid.
 */
export function bodyIssues(value: unknown, limits = BODY_LIMITS): BodyIssue[] {
  const issues: BodyIssue[] = [];
  const stack: { v: unknown; at: string; depth: number }[] = [{ v: value, at: '', depth: 0 }];
  let seen = 0;
  const name = (at: string) => at || '(root)';
  while (stack.length && issues.length < 20) {
    const { v, at, depth } = stack.pop()!;
    if (++seen > limits.values) {
      issues.push({ field: '(root)', message: `holds more than ${limits.values} values` });
      break;
    }
    if (typeof v === 'string') {
      if (v.length > limits.string) issues.push({ field: name(at), message: `is longer than ${limits.string} characters` });
      else {
        const t = textIssue(v);
        if (t) issues.push({ field: name(at), message: t });
      }
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limits.depth) {
      issues.push({ field: name(at), message: `is nested deeper than ${limits.depth} levels` });
      break;
    }
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    if (entries.length > limits.items) {
      issues.push({ field: name(at), message: `has more than ${limits.items} ${Array.isArray(v) ? 'items' : 'keys'}` });
      continue;
    }
    for (const [k, x] of entries) {
      const here = at ? `${at}.${k}` : k;
      const kt = Array.isArray(v) ? null : k.length > 200 ? 'is a key longer than 200 characters' : textIssue(k);
      if (kt) issues.push({ field: here, message: kt });
      else stack.push({ v: x, at: here, depth: depth + 1 });
    }
  }
  return issues;
}
