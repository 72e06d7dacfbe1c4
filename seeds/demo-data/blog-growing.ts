import type { BlogSpec } from './blog-launching.ts';

// Blog posts about growing after launch, part two.
export const GROWTH_POSTS: BlogSpec[] = [
  {
    slug: 'what-domain-rating-means',
    title: 'What Domain Rating means for a young product',
    author: 'Kenji Tanaka',
    daysAgo: 9,
    excerpt: 'Domain Rating measures the strength of your backlinks from 0 to 100. Here is why the trend matters more than the number.',
    tags: ['seo', 'rankings'],
    faqs: [
      { question: 'How often is Domain Rating measured?', answer: 'Weekly. The board shows the latest value and the change over about four weeks.' },
      {
        question: 'Does a listing here raise my Domain Rating?',
        answer: 'A link from a directory helps a little; links from relevant articles help much more.',
      },
    ],
    body: `# What Domain Rating means for a young product

**Domain Rating** (DR) is a 0-100 score of a site's backlink profile. New products usually start below 10.

## Read the trend

A DR of 15 that grew from 5 in a month says more than a flat 30. Our board shows each company's
latest value and its change over roughly four weeks.

## Raising it honestly

- Publish something others want to cite: data, benchmarks, tools.
- Get listed where your customers look.
- Write guest posts for publications in your niche.

Avoid link schemes: search engines discount them, and they can cost you more than they bring.
`,
  },
  {
    slug: 'sharing-revenue-publicly',
    title: 'Should you share your revenue publicly?',
    author: 'Sofia Rossi',
    daysAgo: 27,
    excerpt: 'Open revenue builds trust and an audience, and it has costs. What founders on our revenue board told us.',
    tags: ['founders', 'transparency'],
    faqs: [
      {
        question: 'What does verified mean on the revenue board?',
        answer: 'The figure was checked against the payment provider rather than typed in by the founder.',
      },
    ],
    body: `# Should you share your revenue?

The revenue board lists monthly recurring revenue founders chose to share. Some figures are **verified**
against the payment provider; others are self-reported and marked as such.

## Why founders share

- It is a story people follow month after month.
- Customers trust a company that shows it is here to stay.

## Why some stop

- Competitors see what works.
- A bad month is public too.

## A middle path

Share growth rates or milestones instead of exact numbers, and add
[milestones](/blog/founder-story-guide) to your listing.
`,
  },
  {
    slug: 'choosing-a-pricing-model',
    title: 'Free, freemium, paid, usage-based or open source?',
    author: 'Sofia Rossi',
    daysAgo: 49,
    excerpt: 'A plain comparison of the five pricing models you will see across the directory, with who each suits.',
    tags: ['pricing'],
    faqs: [{ question: 'Can I filter listings by pricing model?', answer: 'Yes, search accepts a pricing_model filter, for example freemium or open-source.' }],
    body: `# Choosing a pricing model

Every listing states one of five models.

- **Free**: no paid plan. Often a side project or funded some other way.
- **Freemium**: a free plan with limits, paid plans for more.
- **Paid**: a trial, then a subscription.
- **Usage-based**: pay for what you use; good when value grows with volume.
- **Open source**: the code is free to run; money comes from hosting or support.

## Questions to ask

1. Does value grow with seats, usage or neither?
2. Can a free user become an advocate?
3. What would you charge your favourite customer?

Look at [how others price](/listings?pricing_model=usage-based) in your category before deciding.
`,
  },
  {
    slug: 'building-in-public-updates',
    title: 'Updates that bring people back',
    author: 'Amara Okafor',
    daysAgo: 71,
    excerpt: 'Followers hear about every update you post. Short, concrete updates keep them around.',
    tags: ['growth', 'updates'],
    faqs: [{ question: 'Who sees my updates?', answer: 'Everyone on your listing page, and your followers are told about each one.' }],
    body: `# Updates that bring people back

Each update on your listing reaches your followers. Make it worth their time.

## Good updates

- Name the change: "CSV export for reports", not "improvements".
- Say who asked for it.
- Add one screenshot.

## A rhythm that works

Every two weeks is enough. Weekly is fine when you ship weekly.

## What to avoid

Updates that are only announcements of discounts. Followers signed up for the product.
`,
  },
  {
    slug: 'mcp-and-agents',
    title: 'Agents can browse the directory now',
    author: 'Kenji Tanaka',
    daysAgo: 96,
    excerpt: 'Every public read is also an MCP tool, so assistants can search launches, compare products and read categories.',
    tags: ['product', 'ai'],
    faqs: [{ question: 'Do agents need an account?', answer: 'Not for public reads. Signing in is only needed for actions such as submitting a listing.' }],
    body: `# Agents can browse the directory now

The directory has an **MCP server** with the same operations as the REST API.

## What an assistant can do

- search listings with typo-tolerant search,
- compare two products attribute by attribute,
- read this week's launches and the leaderboards.

## What it cannot do

It cannot vote. Votes come only from people on the site, and awards follow votes only.

Developers can read the [OpenAPI document](/api/v1/openapi.json) for the same operations over REST.
`,
  },
  {
    slug: 'relaunching-after-a-big-release',
    title: 'When to relaunch',
    author: 'Maya Lindqvist',
    daysAgo: 130,
    excerpt: 'A relaunch gives a major release a fresh week in the ranking. Here is when it is worth it.',
    tags: ['launching'],
    faqs: [
      { question: 'Do I keep my old votes when I relaunch?', answer: 'Your all-time votes stay. The new launch week counts only votes cast during that week.' },
    ],
    body: `# When to relaunch

A relaunch puts your product in a new launch week. It suits **big** changes.

## Good reasons

- A rewrite or a new platform (mobile, desktop, self-hosted).
- A new product direction with a new audience.

## Weak reasons

- A redesign of the marketing site.
- A price change.

## How to do it

Pick a week, post an update describing what changed, and tell your followers.
`,
  },
];
