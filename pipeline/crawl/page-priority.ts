// Which links to visit first when the page cap cannot cover the whole site: pages that usually
// state facts about the business (home, about, pricing, FAQ, contact...) before everything else.

const FACT_PATHS: ReadonlyArray<readonly [RegExp, number]> = [
  [/^\/$/, 100],
  [/^\/(about|about-us|company|who-we-are)$/, 90],
  [/^\/(pricing|prices|plans)$/, 85],
  [/^\/(faq|faqs|help)$/, 80],
  [/^\/(features|product|products)$/, 75],
  [/^\/(contact|contact-us)$/, 70],
  [/^\/(team|our-team|people)$/, 65],
  [/^\/(blog|news)$/, 50],
];

/** Higher is visited sooner; 0 for pages with no known fact-bearing path. */
export function pageScore(url: string): number {
  let path: string;
  try {
    path = new URL(url).pathname.toLowerCase();
  } catch {
    return 0;
  }
  // "/about/", "/about.html" and "/en/about" count as "/about".
  path = path.replace(/\/index\.html?$/, '/').replace(/\.(html?|php|aspx?)$/, '');
  if (path.length > 1) path = path.replace(/\/+$/, '');
  const localeless = path.replace(/^\/[a-z]{2}(-[a-z]{2})?(?=\/)/, '');
  for (const candidate of [path, localeless]) {
    for (const [pattern, score] of FACT_PATHS) if (pattern.test(candidate)) return score;
  }
  // Shallow pages before deep ones among the rest; never above a known fact path.
  const depth = path.split('/').filter(Boolean).length;
  return Math.max(1, 20 - depth * 5);
}

/** Stable order: higher score first, discovery order among equals. */
export function byPriority(urls: readonly string[]): string[] {
  return urls
    .map((url, index) => ({ url, index, score: pageScore(url) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.url);
}
