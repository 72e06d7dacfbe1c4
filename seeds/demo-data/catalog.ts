// Products with their prices, the founder interview questions and the other sites of the network.

export interface ProductSpec {
  code: string;
  name: string;
  description: string;
  needs_listing: boolean;
  needs_week: boolean;
  options: Record<string, unknown> | null;
  amount_cents: number;
  min_amount_cents?: number;
  /** An older price, so "current" (newest already valid) is not simply the only row. */
  previous_amount_cents?: number;
}

// Every product applies to a listing, so needs_listing is true throughout. A paid launch picks its
// week on the launch item itself (optional: omitted means live now), so only skip_queue and
// relaunch require a week.
export const PRODUCTS: ProductSpec[] = [
  {
    code: 'launch',
    name: 'Paid launch',
    description: 'Go live right away, or in the launch week you choose, instead of waiting 6-8 weeks in the free queue. No badge needed.',
    needs_listing: true,
    needs_week: false,
    options: null,
    amount_cents: 4900,
    previous_amount_cents: 3900,
  },
  {
    code: 'skip_queue',
    name: 'Skip the queue',
    description: 'For free listings: launch in a week of your choice instead of the free-queue week.',
    needs_listing: true,
    needs_week: true,
    options: null,
    amount_cents: 1900,
  },
  {
    code: 'featured',
    name: 'Featured placement',
    description: 'Shown in the featured row of the home page and category pages for a week, marked as featured.',
    needs_listing: true,
    needs_week: false,
    options: null,
    amount_cents: 9900,
    previous_amount_cents: 7900,
  },
  {
    code: 'done_for_you',
    name: 'Done-for-you launch',
    description: 'We list your product on other high-value launch sites and directories for you, and send you a report with every link.',
    needs_listing: true,
    needs_week: false,
    amount_cents: 19900,
    options: {
      type: 'object',
      additionalProperties: false,
      properties: {
        notes: { type: 'string', maxLength: 500, description: 'Anything we should know: positioning, sites to skip, launch timing.' },
      },
    },
  },
  {
    code: 'launch_bundle',
    name: 'Launch bundle',
    description: 'Paid launch, a week of featured placement and the story, milestones and media sections unlocked, at a lower price than separately.',
    needs_listing: true,
    needs_week: false,
    options: null,
    amount_cents: 14900,
  },
  {
    code: 'extra_categories',
    name: 'Extra categories',
    description: 'Show your listing in up to 3 more categories besides its primary one.',
    needs_listing: true,
    needs_week: false,
    options: null,
    amount_cents: 2900,
  },
  {
    code: 'relaunch',
    name: 'Relaunch',
    description: 'Launch again in a week of your choice after a major release, with a fresh spot in the weekly ranking.',
    needs_listing: true,
    needs_week: true,
    options: null,
    amount_cents: 2900,
  },
  {
    code: 'ai_review',
    name: 'AI profile review',
    description: 'An AI review of your listing and website with concrete suggestions for your tagline, description and SEO.',
    needs_listing: true,
    needs_week: false,
    amount_cents: 900,
    options: {
      type: 'object',
      additionalProperties: false,
      properties: {
        focus: { type: 'string', maxLength: 300, description: 'What the review should look at most, e.g. "positioning against competitors".' },
      },
    },
  },
  {
    code: 'billboard_min',
    name: 'Billboard contribution',
    description: 'Contribute any amount from the minimum upwards to rank on the billboard. Always shown as paid placement.',
    needs_listing: true,
    needs_week: false,
    options: null,
    amount_cents: 1000,
    min_amount_cents: 1000,
  },
];

export const INTERVIEW_QUESTIONS = [
  'What problem does your product solve, in one sentence?',
  'What were you doing before you started this company?',
  'How did you find your first ten customers?',
  'What was the hardest technical decision so far, and would you make it again?',
  'Which tools does your team rely on every day?',
  'How do you decide what to build next?',
  'What did your launch teach you?',
  'How do you price your product, and have you changed it?',
  'What mistake cost you the most time?',
  'What does a normal working day look like for you?',
  'Which founder or company do you learn the most from?',
  'What advice would you give someone launching next week?',
];

/** Other sites of the network; their listings must never show on this site. */
export const SISTER_SITES = [
  {
    key: 'sister',
    name: 'Indie Stack Weekly',
    url: 'https://indiestack.example',
    purpose: 'A weekly pick of tools made by independent developers.',
    listings: 18,
  },
  { key: 'saas-atlas', name: 'SaaS Atlas', url: 'https://saas-atlas.example', purpose: 'A map of B2B software by category and country.', listings: 12 },
];
