// Word lists the demo seed combines into product names, people, places and short texts.

export const NAME_HEADS = [
  'Quill', 'Data', 'Bright', 'Nimbus', 'Cedar', 'Orbit', 'Pixel', 'Ember', 'Harbor', 'Lumen', 'Maple', 'Nova',
  'Otter', 'Pilot', 'Quartz', 'Relay', 'Signal', 'Tidal', 'Umber', 'Vector', 'Willow', 'Zephyr', 'Atlas', 'Birch',
  'Cobalt', 'Drift', 'Echo', 'Fable', 'Granite', 'Halo', 'Iris', 'Juniper', 'Kite', 'Lark', 'Mosaic', 'North',
  'Onyx', 'Prism', 'Ripple', 'Sable', 'Thistle', 'Vale', 'Wren', 'Yonder', 'Acorn', 'Beacon', 'Clover', 'Dune',
  'Fern', 'Glint', 'Hatch', 'Inkwell', 'Jolt', 'Kestrel', 'Loom', 'Meadow', 'Nectar', 'Opal', 'Plume', 'Quiver',
];

export const NAME_TAILS = [
  'stack', 'pine', 'ly', 'forge', 'hub', 'flow', 'base', 'desk', 'loop', 'grid', 'mint', 'nest', 'works', 'yard',
  'path', 'shift', 'sync', 'beam', 'craft', 'field', 'lane', 'mark', 'point', 'port', 'scope', 'spark', 'wave', 'wise',
];

export const TLDS = ['io', 'app', 'dev', 'ai', 'co', 'so'];

export const FIRST_NAMES = [
  'Ava', 'Liam', 'Maya', 'Noah', 'Zara', 'Ethan', 'Lena', 'Omar', 'Priya', 'Lucas', 'Sofia', 'Mateo', 'Hana', 'Jonas',
  'Amara', 'Felix', 'Ines', 'Kenji', 'Nora', 'Rafael', 'Chloe', 'Arjun', 'Elena', 'Tomas', 'Mia', 'Daniel', 'Yara',
  'Oscar', 'Leila', 'Samuel', 'Freya', 'Diego', 'Aisha', 'Henrik', 'Camille', 'Ravi', 'Julia', 'Kwame', 'Sara', 'Emil',
  'Nadia', 'Marco', 'Ingrid', 'Tariq', 'Lucia', 'Ben', 'Mei', 'Anton', 'Olivia', 'Sven',
];

export const LAST_NAMES = [
  'Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Schmidt', 'Rossi', 'Novak', 'Haddad', 'Kowalski', 'Fernandes', 'Nguyen',
  'Patel', 'Meyer', 'Silva', 'Jensen', 'Dubois', 'Kim', 'Costa', 'Bauer', 'Ahmed', 'Larsen', 'Walsh', 'Moretti', 'Ito',
  'Varga', 'Mendes', 'Brennan', 'Hoffmann', 'Sato', 'Ortiz', 'Nieminen', 'Keller', 'Andersen', 'Rahman', 'Fischer',
  'Murphy', 'Santos', 'Weber', 'Kaur', 'Ivanova',
];

/** [country, city] pairs; countries are uppercase ISO 3166-1 alpha-2. */
export const PLACES: [string, string][] = [
  ['US', 'San Francisco'], ['US', 'New York'], ['US', 'Austin'], ['US', 'Seattle'], ['US', 'Boston'], ['US', 'Denver'],
  ['GB', 'London'], ['GB', 'Manchester'], ['DE', 'Berlin'], ['DE', 'Munich'], ['FR', 'Paris'], ['FR', 'Lyon'],
  ['NL', 'Amsterdam'], ['SE', 'Stockholm'], ['FI', 'Helsinki'], ['DK', 'Copenhagen'], ['EE', 'Tallinn'],
  ['ES', 'Barcelona'], ['PT', 'Lisbon'], ['IE', 'Dublin'], ['CH', 'Zurich'], ['PL', 'Warsaw'], ['CA', 'Toronto'],
  ['CA', 'Vancouver'], ['IN', 'Bengaluru'], ['SG', 'Singapore'], ['JP', 'Tokyo'], ['AU', 'Sydney'], ['BR', 'São Paulo'],
  ['NG', 'Lagos'], ['IL', 'Tel Aviv'], ['AT', 'Vienna'],
];

export const USPS = [
  'Set up in under five minutes', 'No credit card needed to start', 'Built for teams of 2 to 200', 'Keyboard-first and fast',
  'Transparent pricing with no sales call', 'Human support in under an hour', 'Works with the tools you already use',
  'Private by default', 'Migrate from your old tool in one click', 'Exports everything, any time', 'Ships improvements every week',
];

/** Selling points that only fit one pricing model; a listing with that model leads with it. */
export const PRICING_USPS: Record<string, string> = {
  'open-source': 'Open source at the core', 'usage-based': 'Pay only for what you use',
  freemium: 'Generous free plan for startups', free: 'Free for everyone, for good',
};

export const ADJECTIVES = ['fast', 'friendly', 'privacy-first', 'focused', 'simple', 'collaborative', 'lightweight', 'modern'];

export const FOUNDER_TITLES = ['CEO & Co-founder', 'CTO & Co-founder', 'Founder', 'Co-founder, Product', 'Co-founder, Design', 'Founder & Engineer', 'COO & Co-founder'];

export const PAST_ROLES = [
  'led platform engineering at a payments startup', 'was an early engineer at a design tools company',
  'ran growth at a B2B SaaS scale-up', 'spent six years as a consultant for mid-size companies',
  'built data pipelines at a logistics company', 'freelanced as a product designer',
  'was a product manager at a large cloud provider', 'co-founded a small agency',
  'researched machine learning at a university lab', 'ran customer support for a fintech',
];

export const HOBBIES = [
  'Outside work they climb, badly but happily.', 'They write a small newsletter about building in public.',
  'They are learning the cello.', 'Weekends are for trail running.', 'They mentor at a local coding school.',
  'They collect old mechanical keyboards.', 'They cook far too much pasta.', 'They are usually found in a bookshop.',
];

export const REVIEW_BODIES: Record<number, string[]> = {
  1: ['Could not get it working with our setup and support did not answer.', 'Too buggy for daily use right now.', 'Pricing changed without notice. Moved away.'],
  2: ['Promising, but missing basics we need.', 'Slow on large workspaces.', 'Nice idea, rough execution so far.'],
  3: ['Does the job. The interface needs polish.', 'Solid core, a few missing integrations.', 'Good value, average docs.'],
  4: ['We use it every day; a couple of rough edges.', 'Replaced two tools for us. Wish it had an API.', 'Fast, clear, and the team ships often.', 'Onboarding took minutes. Reporting could be better.'],
  5: ['Exactly what we needed. Setup took ten minutes.', 'The best tool in this category we have tried.', 'Support is outstanding and the product keeps improving.', 'Saves our team hours every week.', 'Simple, fast and reliable. Highly recommended.'],
};

export const SPAM_REVIEWS = ['Best product ever!!! Visit my profile for a discount code', 'Great great great great', 'Terrible. Use our product instead.'];

export const OWNER_REVIEWS = ['We built this because we needed it ourselves, and we use it every day.', 'Proud of what the team shipped here. Feedback welcome!'];

export const UPDATE_TEMPLATES: [string, string][] = [
  ['Dark mode is here', 'You asked, we shipped: {name} now follows your system theme, with a manual switch in settings.'],
  ['New integrations', '{name} now connects with Slack and Zapier. Set it up from the integrations page in under a minute.'],
  ['Faster everything', 'We rewrote the core of {name}; most pages now load twice as fast.'],
  ['Pricing update', 'The free plan of {name} now includes more projects, and annual plans get two months free.'],
  ['Public API', 'The {name} API is now public, with docs, examples and a sandbox key.'],
  ['Mobile apps', '{name} is now on iOS and Android, synced with the web app.'],
  ['SOC 2 Type II', '{name} completed its SOC 2 Type II audit. The report is available on request.'],
];

export const MILESTONE_TITLES = [
  'First paying customer', 'Public beta', 'Version 1.0 released', '1,000 users', 'Seed round closed',
  '10,000 users', 'Launched the public API', 'Opened a second office', 'Reached profitability', 'SOC 2 report',
];

export const MEDIA_CAPTIONS = ['Dashboard overview', 'Editor in dark mode', 'Settings and integrations', 'Reports view', 'Mobile app', 'Onboarding flow'];

export const NOT_FOUND_FIELDS = ['founded_year', 'city', 'pricing_summary', 'contact_email'] as const;

export const SOCIAL_PLATFORMS = ['x', 'linkedin', 'github', 'youtube', 'producthunt', 'instagram', 'medium'];
