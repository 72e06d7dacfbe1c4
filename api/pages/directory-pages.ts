// Every page renderer of the directory, by page family; the plugin maps routes onto them.

export { blogPage, blogPostPage } from './blog-pages.tsx';
export { categoriesPage, categoryPage } from './category-pages.tsx';
export { badRequestRenderer, notFoundRenderer, serverErrorRenderer, unavailableRenderer } from './error-pages.tsx';
export { founderPage, foundersPage } from './founder-pages.tsx';
export { home, updatesPage } from './home-pages.tsx';
export { awardsPage, launchesPage, launchWeekPage } from './launch-pages.tsx';
export { leaderboardPage, leaderboardsIndex } from './leaderboard-pages.tsx';
export { pricingPage } from './pricing-page.tsx';
export type { Rendered, Renderer } from './rendered.ts';
export { comparePage, searchPage } from './search-pages.tsx';
