// Blog posts about launching, part one. daysAgo places published_at relative to the seed's now.

export interface BlogSpec {
  slug: string;
  title: string;
  excerpt: string;
  author: string;
  tags: string[];
  faqs: { question: string; answer: string }[];
  daysAgo: number;
  body: string;
}

export const LAUNCH_POSTS: BlogSpec[] = [
  {
    slug: 'launch-week-checklist',
    title: 'The launch week checklist we wish we had',
    author: 'Maya Lindqvist',
    daysAgo: 4,
    excerpt: 'Everything to prepare before your product goes live on Monday, from the tagline to the first reply.',
    tags: ['launching', 'checklist'],
    faqs: [
      { question: 'When does a launch week start?', answer: 'Launch weeks run Monday to Sunday, UTC. Votes cast in that window count for the weekly ranking.' },
      { question: 'Can I change my listing during launch week?', answer: 'Yes. Edits publish at once and never reset your votes.' },
    ],
    body: `# The launch week checklist we wish we had

Launch week is short. Seven days, one ranking, and a lot of people seeing your product for the first time.
Here is what to get right **before** Monday.

## The week before

- Write a tagline that says what the product does, not how it feels.
- Add three to five features, each one a concrete thing a user can do.
- Upload screenshots that show the product, not the marketing site.
- Fill in the FAQs with the questions your sales calls keep hearing.

## On the day

1. Share the listing link with your users and ask for honest feedback, not votes.
2. Reply to every comment and review within a few hours.
3. Post an update when you ship a fix people asked for.

## After the week

Awards are decided by community votes cast during the launch week, so the ranking is final on Sunday night.
Read more in [how we rank launches](/blog/how-we-rank-launches).
`,
  },
  {
    slug: 'how-we-rank-launches',
    title: 'How we rank launches (and why money cannot buy an award)',
    author: 'Jonas Meyer',
    daysAgo: 19,
    excerpt: 'Community votes decide the weekly ranking and awards. Paid placement lives on a separate, clearly marked billboard.',
    tags: ['rankings', 'transparency'],
    faqs: [
      { question: 'Do paid launches rank higher?', answer: 'No. Paying changes when you launch, never where you rank. Only votes from people count.' },
      { question: 'What is the billboard?', answer: 'A separate ranking by money contributed. It is always labelled as paid.' },
    ],
    body: `# How we rank launches

We run several rankings, and we keep them apart on purpose.

## Community votes

Every launch week has its own ranking: **votes cast during that week** for the products that launched in it.
Ties go to the product that launched earlier. Once the week is over, the top three receive
*Launch of the Week* awards #1, #2 and #3.

## Trending

Trending uses the same votes with a three-day half-life, so a product that is getting attention right now
rises above one that was popular last month.

## The billboard

The billboard ranks products by money contributed. It exists because some companies want guaranteed
visibility, and we prefer to sell that openly:

- it is always shown as paid,
- it never affects votes, trending or awards.

## Domain Rating and revenue

Two more boards show public facts: the [Domain Rating](/blog/what-domain-rating-means) of each company's
site and the revenue founders choose to share.
`,
  },
  {
    slug: 'free-or-paid-launch',
    title: 'Free or paid launch: which one fits you?',
    author: 'Maya Lindqvist',
    daysAgo: 37,
    excerpt: 'The free queue costs nothing but time and a badge. A paid launch buys you the date. Here is how to choose.',
    tags: ['launching', 'pricing'],
    faqs: [{ question: 'How long is the free queue?', answer: 'Free listings launch 6 to 8 weeks out, once our badge is found on your homepage.' }],
    body: `# Free or paid launch?

Both paths end in the same weekly ranking. The difference is **when** and **what you give**.

| | Free | Paid |
|---|---|---|
| Launch date | 6-8 weeks out | now or the week you pick |
| Badge on your site | required | optional |
| Extra categories | no | up to 3 |

## Choose free when

- your launch date is flexible,
- you are happy to link to us from your homepage.

## Choose paid when

- you are launching alongside a release or a press date,
- you want the story, milestones and media sections from day one.

Either way, check the [launch week checklist](/blog/launch-week-checklist).
`,
  },
  {
    slug: 'writing-a-tagline',
    title: 'Writing a tagline people understand in three seconds',
    author: 'Camille Dubois',
    daysAgo: 58,
    excerpt: 'A tagline is not a slogan. Five before-and-after examples from recent launches.',
    tags: ['copywriting', 'launching'],
    faqs: [{ question: 'How long can a tagline be?', answer: 'Up to 200 characters, but the best ones are under 60.' }],
    body: `# Writing a tagline people understand in three seconds

Visitors scan a launch list fast. Your tagline has one job: say **what it is** and **who it is for**.

## A simple formula

> *[What it is] for [who] that [result].*

## Before and after

- "Reimagine your workflow" → "Time tracker for freelancers that fills your timesheet for you"
- "The future of data" → "Serverless Postgres with a branch for every pull request"
- "Work, but better" → "Shared inbox for small support teams"

## Three checks

1. Would a stranger know which category you are in?
2. Is there a concrete noun in it?
3. Could a competitor use the same sentence? If yes, try again.
`,
  },
  {
    slug: 'founder-story-guide',
    title: 'How to write a founder story that is worth reading',
    author: 'Amara Okafor',
    daysAgo: 83,
    excerpt: 'Skip the origin myth. The best founder stories are specific about the problem, the mistakes and what comes next.',
    tags: ['founders', 'storytelling'],
    faqs: [
      { question: 'Where does the founder story appear?', answer: "On your listing, once the story section is unlocked, and on each founder's profile page." },
    ],
    body: `# How to write a founder story worth reading

Readers want to know **why you**, **why this problem** and **why now**.

## Structure that works

- *Why we started*: the moment the problem became impossible to ignore.
- *The journey*: two or three decisions that shaped the product.
- *Challenges*: one thing that went wrong, honestly told.
- *What's next*: a concrete plan, not a vision statement.

## Keep it specific

"We lost a week of data to a bad migration" beats "we faced many challenges".
Numbers, dates and names of tools make a story believable.

Answer our [founder interview](/interview-questions) too: the questions are a good warm-up.
`,
  },
  {
    slug: 'first-100-users',
    title: 'Where the last 50 launches found their first 100 users',
    author: 'Jonas Meyer',
    daysAgo: 112,
    excerpt: 'We asked founders of recent launches where their first users came from. Communities beat ads by a wide margin.',
    tags: ['growth', 'research'],
    faqs: [
      { question: 'Did any founders use paid ads first?', answer: 'A few did, mostly for consumer apps; almost none kept spending after the first month.' },
    ],
    body: `# Where the first 100 users came from

We surveyed founders who launched in the last few months. The short version:

1. **Communities** where the founders were already active (41%)
2. **Their own network**: former colleagues, friends, newsletters (27%)
3. **Launch sites and directories** (18%)
4. **Search** (9%)
5. **Paid ads** (5%)

## What worked in communities

- Answering questions for months before mentioning the product.
- Sharing numbers and lessons, not announcements.

## What did not

- Cross-posting the same message to ten places on launch day.

More on picking a channel in [free or paid launch](/blog/free-or-paid-launch).
`,
  },
];
