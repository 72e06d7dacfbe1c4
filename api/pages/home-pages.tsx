import { latestUpdates } from '../../sql/queries/updates.ts';
import { readOp } from './data.ts';
import { Card, Cards, Pager, type Summary } from './components.tsx';
import { count, day } from './format.ts';
import { sectionMetric } from './launch-pages.tsx';
import { pageOf, withPage, type Renderer } from './rendered.ts';

type Update = Awaited<ReturnType<typeof latestUpdates>>['items'][number];

function UpdateList({ items }: { items: Update[] }) {
  if (!items.length) return <p class="empty">No updates yet.</p>;
  return (
    <ol class="updates">
      {items.map((u) => (
        <li>
          <h3>
            <a href={`/listings/${u.listing_slug}`}>{u.listing_name}</a>: {u.title}
          </h3>
          <p class="meta">
            <time datetime={u.created_at}>{day(u.created_at)}</time>
          </p>
          <p class="text">{u.body}</p>
        </li>
      ))}
    </ol>
  );
}

export const home: Renderer = async (deps) => {
  const [week, trending, upcoming, updates] = await Promise.all([
    readOp(deps, 'get_launch_week', { path: { week: 'this' }, query: { per_page: '20' } }),
    readOp(deps, 'list_launches', { query: { section: 'trending', per_page: '10' } }),
    readOp(deps, 'list_launches', { query: { section: 'upcoming', per_page: '6' } }),
    latestUpdates(deps.sql, deps.site.id, 1, 5),
  ]);
  // The featured row: listings on the paid plan (the "Featured" badge), from this week and what is trending.
  const seen = new Set<number>();
  const featured = [...week.items.map((i: any) => i.listing), ...trending.items]
    .filter((l: Summary) => {
      if (l.plan !== 'paid' || seen.has(l.id)) return false;
      seen.add(l.id);
      return true;
    })
    .slice(0, 4);
  return {
    meta: {
      title: `${deps.site.name}: software launches of the week`,
      description: `${deps.site.purpose} This week's launches ranked by community votes, trending and upcoming products.`,
      path: '/',
      feeds: [{ href: '/feeds/launches.xml', title: 'Launches' }],
    },
    body: (
      <>
        <h1>{deps.site.name}</h1>
        <p class="lede">{deps.site.purpose}</p>
        <section aria-labelledby="featured">
          <h2 id="featured">Featured</h2>
          <Cards empty="No featured listings this week.">
            {featured.map((l: Summary) => (
              <Card s={l} badge="Featured" />
            ))}
          </Cards>
        </section>
        <section aria-labelledby="week">
          <h2 id="week">This week's launches</h2>
          <p class="meta">
            Week of {week.week} to {week.week_end}, ranked by community votes. <a href={`/launches/weeks/${week.week}`}>The whole week</a>
          </p>
          <Cards empty="No launches yet this week.">
            {week.items.map((i: any) => (
              <Card s={i.listing} rank={i.rank} metric={`${count(i.votes, 'vote')} this week`} />
            ))}
          </Cards>
        </section>
        <section aria-labelledby="trending">
          <h2 id="trending">Trending</h2>
          <Cards>
            {trending.items.map((i: any) => (
              <Card s={i} metric={sectionMetric(i)} />
            ))}
          </Cards>
          <p>
            <a href="/launches?section=trending">More trending</a>
          </p>
        </section>
        <section aria-labelledby="upcoming">
          <h2 id="upcoming">Upcoming</h2>
          <Cards empty="Nothing scheduled yet." ranked={false}>
            {upcoming.items.map((i: any) => (
              <Card s={i} metric={sectionMetric(i)} />
            ))}
          </Cards>
          <p>
            <a href="/launches?section=upcoming">All upcoming launches</a>
          </p>
        </section>
        <section aria-labelledby="updates">
          <h2 id="updates">Newest updates</h2>
          <UpdateList items={updates.items} />
          <p>
            <a href="/updates">All updates</a>
          </p>
        </section>
      </>
    ),
  };
};

export const updatesPage: Renderer = async (deps, url) => {
  const page = pageOf(url);
  const out = await latestUpdates(deps.sql, deps.site.id, page, 20);
  return {
    meta: {
      title: page > 1 ? `Latest updates, page ${page}` : 'Latest updates',
      description: 'What the products listed here shipped lately: their newest updates, newest first.',
      path: withPage('/updates', url),
    },
    body: (
      <>
        <h1>Latest updates</h1>
        <UpdateList items={out.items} />
        <Pager path="/updates" page={page} hasMore={out.has_more} />
      </>
    ),
  };
};
