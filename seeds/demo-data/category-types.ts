// Shapes of the fixed category content; the seed turns them into categories rows and listing text.

export type QA = [question: string, answer: string];

export interface LeafSpec {
  slug: string;
  name: string;
  description: string;
  faqs: QA[]; // category-specific; generic ones are added to reach 2-4
  attrs: string[]; // keys of ATTRIBUTES, 3-6
  kinds: string[]; // what a product here is ("managed Postgres")
  jobs: string[]; // what it helps people do ("ship schema changes safely")
  features: string[];
  keywords: string[]; // also the category's keywords, which the drafters match sites against
}

export interface ParentSpec {
  slug: string;
  name: string;
  description: string;
  faqs: QA[];
  attrs: string[];
  audiences: string[]; // who products in this group are for
  keywords: string[]; // words the category goes by besides its name; the drafters match sites against them
  children: LeafSpec[];
}
