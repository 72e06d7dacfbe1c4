// Examples of the free-listing operations: real answers of the demo data (seeds/), shortened to two items a list.
import type { OperationExamples } from '../registry/operation.ts';

const freeListingOutput = {
  id: 371,
  slug: 'lumen-notes',
  name: 'Lumen Notes',
  url: 'https://lumennotes.example/',
  domain: 'lumennotes.example',
  profile_url: 'https://launchpad.example/listings/lumen-notes',
  status: 'awaiting_badge',
  status_reason: 'badge_not_checked',
  status_detail: null,
  status_changed_at: '2026-11-28T04:57:52Z',
  plan: 'free',
  launch_week: '2027-01-04',
  launched_at: null,
  free_queued_at: '2026-11-28T04:57:52Z',
  badge_checked_at: null,
  badge_seen_at: null,
  unlocked_sections: [],
  categories: ['Developer Tools'],
  category_slugs: ['developer-tools'],
  submitted: true,
  created_at: '2026-11-28T04:57:52Z',
  updated_at: '2026-11-28T04:57:52Z',
  fields: {
    tagline: 'Private note-taking for research teams',
    short_description: 'Lumen Notes is a private note-taking app for research teams that links every note to the source it came from.',
    description: null,
    pricing_model: 'Freemium',
    pricing_summary: 'Free: $0 per month, up to 3 users; Pro: $12 per user per month',
    country: null,
    city: null,
    founded_year: 2021,
    demo_video_url: null,
    contact_email: 'hello@lumen.example',
    features: ['Link every note to its source', 'End-to-end encrypted workspaces'],
    usps: [],
    keywords: ['End-to-end encrypted workspaces'],
    headline: null,
    summary: null,
    seo_title: null,
    seo_description: null,
  },
  socials: { github: 'https://github.com/lumennotes', linkedin: 'https://www.linkedin.com/company/lumennotes', x: 'https://x.com/lumennotes' },
  faqs: [
    { question: 'Can I import my notes?', answer: 'Yes, Lumen Notes imports Markdown and Evernote exports.' },
    { question: 'Is my data encrypted?', answer: 'Yes, every workspace is end-to-end encrypted.' },
  ],
  proposed_changes: [],
  vanished: [],
  next_step: {
    action: 'place_badge',
    message:
      'Place our "Listed on" badge (badge.html) on your homepage https://lumennotes.example/, visible and linking to https://launchpad.example/listings/lumen-notes. We check it every hour; once found, the listing is scheduled for the week of 2027-01-04.',
  },
  badge: {
    kind: 'listed',
    html: '<a href="https://launchpad.example/listings/lumen-notes" target="_blank" rel="noopener"><img src="https://launchpad.example/badges/lumen-notes/listed.svg?shape=standard&amp;mode=light&amp;size=m" alt="Lumen Notes is listed on Launchpad Directory" width="250" …',
    image_url: 'https://launchpad.example/badges/lumen-notes/listed.svg?shape=standard&mode=light&size=m',
    link_url: 'https://launchpad.example/listings/lumen-notes',
  },
};

export const freeListingExamples = {
  choose_free_listing: {
    input: { listing_id: 371 },
    output: freeListingOutput,
    error: { status: 409, code: 'listing_already_published', detail: 'The listing is live; only a listing not yet published can join the free queue.' },
  },
  check_badge_now: {
    input: { listing_id: 371 },
    output: {
      ...freeListingOutput,
      status_reason: 'badge_not_found',
      status_detail: 'no link to /listings/lumen-notes on https://lumennotes.example/; found 3 other links',
      badge_checked_at: '2026-11-28T05:02:10Z',
      updated_at: '2026-11-28T05:02:10Z',
    },
    error: {
      status: 429,
      code: 'badge_check_too_soon',
      detail: 'The badge was checked 12 seconds ago; a check on request runs at most once a minute. Try again in 48 seconds.',
    },
  },
} satisfies Record<string, OperationExamples>;
