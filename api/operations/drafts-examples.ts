// Examples of the drafts operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

/** The demo draft as get_draft answers it once drafted (the fixture site Lumen Notes). */
const readyDraft = {
  id: '5572f1cb-02af-4422-adb4-219f501c4ad7',
  url: 'https://lumennotes.example/',
  domain: 'lumennotes.example',
  status: 'ready',
  failure: null,
  fields: {
    name: { value: 'Lumen Notes', state: 'ai', evidence: [{ url: 'https://lumennotes.example/', quote: 'Lumen Notes' }] },
    tagline: {
      value: 'Private note-taking for research teams',
      state: 'ai',
      evidence: [{ url: 'https://lumennotes.example/', quote: 'Private note-taking for research teams' }],
    },
    short_description: {
      value: 'Lumen Notes is a private note-taking app for research teams that links every note to the source it came from.',
      state: 'ai',
      evidence: [
        {
          url: 'https://lumennotes.example/',
          quote: 'Lumen Notes is a private note-taking app for research teams that links every note to the source it came from.',
        },
      ],
    },
    description: { value: null, state: 'not_found', evidence: [] },
    stage: { value: null, state: 'not_found', evidence: [] },
    pricing_model: {
      value: 'Freemium',
      state: 'ai',
      evidence: [
        { url: 'https://lumennotes.example/pricing', quote: 'Free' },
        { url: 'https://lumennotes.example/pricing', quote: '$0 per month, up to 3 users' },
      ],
    },
    pricing_summary: {
      value: 'Free: $0 per month, up to 3 users; Pro: $12 per user per month',
      state: 'ai',
      evidence: [
        { url: 'https://lumennotes.example/pricing', quote: 'Free' },
        { url: 'https://lumennotes.example/pricing', quote: '$0 per month, up to 3 users' },
      ],
    },
    country: { value: null, state: 'not_found', evidence: [] },
    city: { value: null, state: 'not_found', evidence: [] },
    founded_year: {
      value: '2019',
      state: 'ai',
      evidence: [{ url: 'https://lumennotes.example/about', quote: 'Lumen Notes was founded in 2019 in Berlin, Germany.' }],
    },
    contact_email: {
      value: 'hello@lumen.example',
      state: 'ai',
      evidence: [{ url: 'https://lumennotes.example/contact', quote: 'Write to us at hello@lumen.example.' }],
    },
    demo_video_url: { value: null, state: 'not_found', evidence: [] },
    logo_url: { value: null, state: 'not_found', evidence: [] },
    categories: {
      value: ['Note-taking'],
      slugs: ['note-taking'],
      state: 'ai',
      evidence: [{ url: 'https://lumennotes.example/', quote: 'Private note-taking for research teams' }],
    },
    tags: { value: null, state: 'not_found', evidence: [] },
    features: {
      value: ['Link every note to its source', 'End-to-end encrypted workspaces'],
      state: 'ai',
      evidence: [
        { url: 'https://lumennotes.example/', quote: 'Link every note to its source' },
        { url: 'https://lumennotes.example/', quote: 'End-to-end encrypted workspaces' },
      ],
    },
    usps: { value: null, state: 'not_found', evidence: [] },
    keywords: {
      value: ['End-to-end encrypted workspaces'],
      state: 'ai',
      evidence: [{ url: 'https://lumennotes.example/', quote: 'End-to-end encrypted workspaces' }],
    },
  },
  faqs: {
    state: 'ai',
    value: [
      {
        question: 'Can I import my notes?',
        answer: 'Yes, Lumen Notes imports Markdown and Evernote exports.',
        evidence: [
          { url: 'https://lumennotes.example/faq', quote: 'Can I import my notes?' },
          { url: 'https://lumennotes.example/faq', quote: 'Yes, Lumen Notes imports Markdown and Evernote exports.' },
        ],
      },
      {
        question: 'Is my data encrypted?',
        answer: 'Yes, every workspace is end-to-end encrypted.',
        evidence: [
          { url: 'https://lumennotes.example/faq', quote: 'Is my data encrypted?' },
          { url: 'https://lumennotes.example/faq', quote: 'Yes, every workspace is end-to-end encrypted.' },
        ],
      },
    ],
  },
  founders: {
    state: 'ai',
    value: [
      {
        name: 'Ada Lindqvist',
        title: 'Co-founder and CEO',
        bio: 'Ada led research tooling at a university library for ten years.',
        evidence: [
          { url: 'https://lumennotes.example/about', quote: 'Ada Lindqvist' },
          { url: 'https://lumennotes.example/about', quote: 'Co-founder and CEO' },
        ],
        invited: false,
      },
    ],
  },
  company_socials: {
    state: 'ai',
    value: { x: 'https://x.com/lumennotes', github: 'https://github.com/lumennotes', linkedin: 'https://www.linkedin.com/company/lumennotes' },
    evidence: {
      x: [{ url: 'https://lumennotes.example/', quote: 'X' }],
      github: [{ url: 'https://lumennotes.example/', quote: 'GitHub' }],
      linkedin: [{ url: 'https://lumennotes.example/', quote: 'LinkedIn' }],
    },
  },
  founder_socials: { state: 'not_found', value: {}, evidence: {} },
  story: { state: 'not_found', value: {}, evidence: {} },
  milestones: { state: 'not_found', value: [] },
  seo: { title: null, meta: null },
  competitor_url: null,
  comparison: null,
  regenerating: [],
  regenerate_error: null,
  completeness: 62,
  missing: ['description', 'stage'],
  crawl: {
    pages: [
      { url: 'https://lumennotes.example/', title: 'Lumen Notes - Private note-taking for research teams' },
      { url: 'https://lumennotes.example/about', title: 'About Lumen Notes' },
    ],
    skipped: [
      { url: 'https://lumennotes.example/internal/roadmap', reason: 'robots_disallowed' },
      { url: 'http://partners.invalid/', reason: 'off_site' },
    ],
  },
  invites: [],
  listing_id: null,
  submitted_at: null,
  drafted_at: '2026-11-28T04:57:52.390Z',
  created_at: '2026-11-28T04:57:50.607Z',
  updated_at: '2026-11-28T04:57:52.390Z',
};
export const draftsExamples = {
  submit_listing: {
    input: { url: 'https://lumennotes.example/' },
    output: {
      id: '5572f1cb-02af-4422-adb4-219f501c4ad7',
      url: 'https://lumennotes.example/',
      domain: 'lumennotes.example',
      status: 'crawling',
      failure: null,
      fields: {
        name: { value: null, state: null, evidence: [] },
        tagline: { value: null, state: null, evidence: [] },
        short_description: { value: null, state: null, evidence: [] },
        description: { value: null, state: null, evidence: [] },
        stage: { value: null, state: null, evidence: [] },
        pricing_model: { value: null, state: null, evidence: [] },
        pricing_summary: { value: null, state: null, evidence: [] },
        country: { value: null, state: null, evidence: [] },
        city: { value: null, state: null, evidence: [] },
        founded_year: { value: null, state: null, evidence: [] },
        contact_email: { value: null, state: null, evidence: [] },
        demo_video_url: { value: null, state: null, evidence: [] },
        logo_url: { value: null, state: null, evidence: [] },
        categories: { value: null, slugs: [], state: null, evidence: [] },
        tags: { value: null, state: null, evidence: [] },
        features: { value: null, state: null, evidence: [] },
        usps: { value: null, state: null, evidence: [] },
        keywords: { value: null, state: null, evidence: [] },
      },
      faqs: { state: null, value: [] },
      founders: { state: null, value: [] },
      company_socials: { state: null, value: {}, evidence: {} },
      founder_socials: { state: null, value: {}, evidence: {} },
      story: { state: null, value: {}, evidence: {} },
      milestones: { state: null, value: [] },
      seo: { title: null, meta: null },
      competitor_url: null,
      comparison: null,
      regenerating: [],
      regenerate_error: null,
      completeness: 0,
      missing: [],
      crawl: { pages: [], skipped: [] },
      invites: [],
      listing_id: null,
      submitted_at: null,
      drafted_at: null,
      created_at: '2026-11-28T04:57:50.607Z',
      updated_at: '2026-11-28T04:57:50.607Z',
    },
    error: {
      status: 400,
      code: 'url_not_public',
      detail: 'Invalid input: url must be a public website (a full domain name)',
      errors: [{ field: 'url', message: 'must be a public website (a full domain name)' }],
    },
  },
  list_my_drafts: {
    input: { per_page: 2 },
    output: {
      items: [
        {
          id: '5572f1cb-02af-4422-adb4-219f501c4ad7',
          url: 'https://lumennotes.example/',
          domain: 'lumennotes.example',
          name: 'Lumen Notes',
          status: 'ready',
          completeness: 62,
          listing_id: null,
          created_at: '2026-11-28T04:57:50.607Z',
          updated_at: '2026-11-28T04:57:52.390Z',
        },
      ],
      page: 1,
      per_page: 2,
      total: 1,
      has_more: false,
    },
    error: { status: 403, code: 'insufficient_scope', detail: 'This credential lacks the account:read scope.' },
  },
  get_draft: {
    input: { id: '5572f1cb-02af-4422-adb4-219f501c4ad7' },
    output: readyDraft,
    error: { status: 404, code: 'not_found', detail: 'No draft 5572f1cb-02af-4422-adb4-219f501c4ad7 of yours.' },
  },
  update_draft: {
    input: { id: '5572f1cb-02af-4422-adb4-219f501c4ad7', fields: { founded_year: '2021', categories: ['developer-tools'] } },
    output: {
      ...readyDraft,
      fields: {
        ...readyDraft.fields,
        founded_year: { value: '2021', state: 'edited', evidence: [] },
        categories: { value: ['Developer Tools'], slugs: ['developer-tools'], state: 'edited', evidence: [] },
      },
      updated_at: '2026-11-28T04:57:52.635Z',
    },
    error: {
      status: 400,
      code: 'unknown_category',
      detail:
        'Invalid input: fields.categories[0] "developer-toolsx" is not a category name or slug from list_categories; valid slugs include developer-tools, design, security, apis, ai-ml',
      errors: [
        {
          field: 'fields.categories[0]',
          message: '"developer-toolsx" is not a category name or slug from list_categories; valid slugs include developer-tools, design, security, apis, ai-ml',
        },
      ],
    },
  },
  invite_cofounder: {
    input: { id: '5572f1cb-02af-4422-adb4-219f501c4ad7', email: 'maya@lumennotes.example' },
    output: {
      id: 1,
      draft_id: '5572f1cb-02af-4422-adb4-219f501c4ad7',
      email: 'maya@lumennotes.example',
      status: 'pending',
      created_at: '2026-11-28T04:57:52.667Z',
      expires_at: '2026-12-12T04:57:52.667Z',
    },
    error: { status: 409, code: 'invite_limit_reached', detail: 'A draft has at most 10 co-founder invites; this one has 10.' },
  },
  submit_draft: {
    input: { id: '5572f1cb-02af-4422-adb4-219f501c4ad7' },
    output: {
      listing_id: 371,
      draft_id: '5572f1cb-02af-4422-adb4-219f501c4ad7',
      created: true,
      slug: 'lumen-notes',
      name: 'Lumen Notes',
      url: 'https://lumennotes.example/',
      status: 'draft',
      plan: 'free',
      not_found_on_website: ['description', 'stage'],
      categories: ['Developer Tools'],
      category_slugs: ['developer-tools'],
      adjusted: [],
      submitted_at: '2026-11-28T04:57:52.687Z',
    },
    error: { status: 409, code: 'draft_in_progress', detail: 'The draft is still drafting; submit it once it is ready (poll get_draft).' },
  },
} satisfies Record<string, OperationExamples>;
