import { BUSINESS_CATEGORIES } from './categories-business.ts';
import { TECH_CATEGORIES } from './categories-tech.ts';
import type { LeafSpec, ParentSpec, QA } from './category-types.ts';

export { ATTRIBUTES } from './attributes.ts';
export type { LeafSpec, ParentSpec, QA } from './category-types.ts';

export const CATEGORY_TREE: ParentSpec[] = [...TECH_CATEGORIES, ...BUSINESS_CATEGORIES];

/** Every subcategory with its parent, in tree order. */
export const LEAVES: { parent: ParentSpec; leaf: LeafSpec }[] = CATEGORY_TREE.flatMap((parent) => parent.children.map((leaf) => ({ parent, leaf })));

/** Category FAQs: the written ones first, topped up with general ones to between 2 and 4. */
export function categoryFaqs(name: string, own: QA[], extra: number): { question: string; answer: string }[] {
  const general: QA[] = [
    [
      `How are products in ${name} ranked?`,
      'By community votes from people on the site. Paid placement appears only on the billboard and is always marked as paid.',
    ],
    [`How do I add my product to ${name}?`, `Submit your website. We draft the profile from your site, and you pick ${name} as a category before publishing.`],
    [
      `Can I compare two ${name} products?`,
      'Yes. Open the compare page with two listings to see their category attributes side by side; an empty cell means neither listing states that fact.',
    ],
  ];
  const count = Math.min(4, Math.max(2, own.length + extra));
  return [...own, ...general].slice(0, count).map(([question, answer]) => ({ question, answer }));
}
