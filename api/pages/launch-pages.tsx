import { queryOf, readOp } from './data.ts';
import { Card, Cards, Pager } from './components.tsx';
import { count, day, n } from './format.ts';
import type { Renderer } from './rendered.ts';

export const SECTIONS: Record<string, string> = {
  today: 'Launched today',
  'this-week': 'This week',
  trending: 'Trending',
  'most-voted': 'Most voted',
  recent: 'Recently launched',
  'most-viewed': 'Most viewed',
  'most-followed': 'Most followed',
  upcoming: 'Upcoming',
};

/** What a launch section ranks by, as the card's metric line. */
export function sectionMetric(item: any): string {
  const m = item.metric;
  if (!m || m.value === null) return count(item.votes, 'vote');
  switch (m.name) {
    case 'trending_score':
      return `trending ${Number(m.value).toFixed(1)} · ${count(item.votes, 'vote')}`;
    case 'views':
      return count(Number(m.value), 'view');
    case 'follows':
      return count(Number(m.value), 'follower');
    case 'launched_at':
      return `launched ${day(String(m.value))}`;
    case 'launch_week':
      return `launches week of ${day(String(m.value))}`;
    default:
      return count(Number(m.value), 'vote');
  }
}

export const launchesPage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['section', 'page']);
  const section = q.section ?? 'this-week';
  const out = await readOp(deps, 'list_launches', { query: q });
  const title = `Launches: ${SECTIONS[section]}`;
  return {
    meta: {
      title: out.page > 1 ? `${title}, page ${out.page}` : title,
      description: `${SECTIONS[section]} on ${deps.site.name}: software launches ranked and listed by section.`,
      path: `/launches?section=${section}${out.page > 1 ? `&page=${out.page}` : ''}`,
      feeds: [{ href: '/feeds/launches.xml', title: 'Launches' }],
    },
    body: (
      <>
        <h1>Launches</h1>
        <nav aria-label="Sections">
          <ul class="tabs">
            {Object.entries(SECTIONS).map(([k, label]) => (
              <li>
                <a href={`/launches?section=${k}`} aria-current={k === section ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <h2>{SECTIONS[section]}</h2>
        <p>
          <a href="/launches/weeks/this">This week</a> · <a href="/launches/weeks/last">Last week</a> · <a href="/launches/weeks/next">Next week</a>
        </p>
        <Cards ranked={section !== 'upcoming'}>
          {out.items.map((i: any) => (
            <Card s={i} rank={section === 'upcoming' ? null : i.rank} metric={sectionMetric(i)} />
          ))}
        </Cards>
        <Pager path="/launches" params={{ section }} page={out.page} hasMore={out.has_more} />
      </>
    ),
  };
};

const addDays = (iso: string, d: number) => new Date(Date.parse(`${iso}T00:00:00Z`) + d * 86400000).toISOString().slice(0, 10);

export const launchWeekPage: Renderer = async (deps, url, params) => {
  const out = await readOp(deps, 'get_launch_week', { path: { week: params.week }, query: queryOf(url, ['page']) });
  // The same page of the week's integrity report: one short line per launch on how its votes were cast.
  const integrity = out.is_future
    ? null
    : await readOp(deps, 'get_launch_integrity', { path: { week: out.week }, query: out.page > 1 ? { page: out.page } : {} });
  const lineOf = new Map<number, string>((integrity?.items ?? []).map((i: any) => [i.listing.id, i.summary]));
  const label = out.label ? ` (${out.label} week)` : '';
  return {
    meta: {
      title: `Launches of the week of ${out.week}${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: `Software launched on ${deps.site.name} from ${out.week} to ${out.week_end}, ranked by community votes.`,
      path: `/launches/weeks/${out.week}${out.page > 1 ? `?page=${out.page}` : ''}`,
    },
    body: (
      <>
        <h1>
          Week of {out.week}
          {label}
        </h1>
        <p class="meta">
          {out.week} to {out.week_end}. {out.is_future ? 'Scheduled launches for this week.' : 'Live launches ranked by community votes cast during the week.'}
          {out.is_future ? null : (
            <>
              {' '}
              <a href={`/api/v1/launches/weeks/${out.week}/integrity`}>How this week's votes were cast</a> (integrity report).
            </>
          )}
        </p>
        <nav class="pager" aria-label="Weeks">
          <a rel="prev" href={`/launches/weeks/${addDays(out.week, -7)}`}>
            Previous week
          </a>
          <a rel="next" href={`/launches/weeks/${addDays(out.week, 7)}`}>
            Next week
          </a>
        </nav>
        <Cards empty="No launches this week." ranked={!out.is_future}>
          {out.items.map((i: any) => (
            <Card
              s={i.listing}
              rank={out.is_future ? null : i.rank}
              metric={out.is_future ? 'scheduled' : (lineOf.get(i.listing.id) ?? `${count(i.votes, 'vote')} this week`)}
            />
          ))}
        </Cards>
        <Pager path={`/launches/weeks/${out.week}`} page={out.page} hasMore={out.has_more} />
      </>
    ),
  };
};

export const awardsPage: Renderer = async (deps, url) => {
  const q = queryOf(url, ['listing', 'page']);
  const out = await readOp(deps, 'list_awards', { query: q });
  return {
    meta: {
      title: `Awards${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: 'Launch of the Week #1, #2 and #3, decided by community votes, newest week first.',
      path: `/awards${out.page > 1 ? `?page=${out.page}` : ''}`,
      noindex: Boolean(q.listing),
    },
    body: (
      <>
        <h1>Awards</h1>
        <p>Launch of the Week awards follow community votes only.</p>
        {out.items.length ? (
          <ol class="cards">
            {out.items.map((a: any) => (
              <li class="card">
                <span class="rank">#{a.rank}</span>
                <div class="card-body">
                  <h3>
                    <a href={`/listings/${a.listing.slug}`}>{a.listing.name}</a>
                  </h3>
                  <p>
                    {a.title}, week of <a href={`/launches/weeks/${a.week}`}>{a.week}</a> · {n(a.votes)} votes
                  </p>
                </div>
              </li>
            ))}
          </ol>
        ) : (
          <p class="empty">No awards yet.</p>
        )}
        <Pager path="/awards" params={q} page={out.page} hasMore={out.has_more} />
      </>
    ),
  };
};
