// Reading schema.org JSON-LD nodes. Values read here are only candidates: the drafter keeps
// one only when the same words are on the visible page (JSON-LD is a script, never evidence).
import type { JsonLdNode, PageModel } from '../page-model.ts';

export const ORGANIZATION = ['organization', 'corporation', 'localbusiness', 'ngo', 'educationalorganization', 'onlinebusiness'];
export const PRODUCT = ['softwareapplication', 'webapplication', 'mobileapplication', 'product', 'service'];

export function typesOf(node: JsonLdNode): string[] {
  const type = node['@type'];
  const list = Array.isArray(type) ? type : [type];
  return list.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase().replace(/^.*[/#:]/, ''));
}

export function nodesOf(models: PageModel[], types: string[]): { model: PageModel; node: JsonLdNode }[] {
  const out: { model: PageModel; node: JsonLdNode }[] = [];
  for (const model of models) {
    for (const node of model.jsonLd) if (typesOf(node).some((t) => types.includes(t))) out.push({ model, node });
  }
  return out;
}

/** A string property (or the first string of an array), trimmed, tags stripped. */
export function textOf(value: unknown): string | null {
  const first = Array.isArray(value) ? value.find((v) => typeof v === 'string') : value;
  if (typeof first !== 'string') return null;
  const text = first
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text === '' ? null : text;
}

export function asNodes(value: unknown): JsonLdNode[] {
  const list = Array.isArray(value) ? value : [value];
  return list.filter((v): v is JsonLdNode => v !== null && typeof v === 'object');
}
