import { queryOf, readOp } from './data.ts';
import { Card, Cards, Pager } from './components.tsx';
import { count, money } from './format.ts';
import type { Renderer } from './rendered.ts';

const BOARD_NAMES: Record<string, string> = {
  'community-weekly': 'Community: weekly',
  'community-all-time': 'Community: all time',
  billboard: 'Billboard (paid)',
  'domain-rating': 'Domain Rating',
  revenue: 'Revenue',
};

function boardMetric(i: any): string {
  const m = i.metric;
  switch (m.name) {
    case 'amount_cents':
      return `${money(m.value, m.currency)} paid · ${m.contributions} payments`;
    case 'domain_rating':
      return `DR ${m.value}${m.trend === null || m.trend === undefined ? '' : ` (${m.trend >= 0 ? '+' : ''}${m.trend})`}`;
    case 'mrr_cents':
      return `${money(m.value, m.currency)} MRR${m.source === 'stripe' || m.verified ? ' (verified via Stripe)' : ' (self-reported)'}`;
    default:
      return count(Number(m.value), 'vote');
  }
}

export const leaderboardsIndex: Renderer = async (_deps) => ({
  meta: {
    title: 'Leaderboards',
    description: 'Five separate rankings: community votes this week and of all time, the paid billboard, Domain Rating and revenue.',
    path: '/leaderboards',
  },
  body: (
    <>
      <h1>Leaderboards</h1>
      <p>Each ranking stands on its own. Awards follow community votes only; the billboard is paid.</p>
      <ul class="boards">
        {Object.entries(BOARD_NAMES).map(([k, v]) => (
          <li>
            <a href={`/leaderboards/${k}`}>{v}</a>
            {k === 'billboard' ? (
              <>
                {' '}
                <span class="tag paid">Paid</span>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    </>
  ),
});

export const leaderboardPage: Renderer = async (deps, url, params) => {
  const out = await readOp(deps, 'get_leaderboard', { path: { board: params.board }, query: queryOf(url, ['week', 'page']) });
  return {
    meta: {
      title: `Leaderboard: ${out.title}${out.page > 1 ? `, page ${out.page}` : ''}`,
      description: out.description,
      path: `/leaderboards/${out.board}${out.page > 1 ? `?page=${out.page}` : ''}`,
    },
    body: (
      <>
        <h1>{out.title}</h1>
        <nav aria-label="Leaderboards">
          <ul class="tabs">
            {Object.entries(BOARD_NAMES).map(([k, v]) => (
              <li>
                <a href={`/leaderboards/${k}`} aria-current={k === out.board ? 'page' : undefined}>
                  {v}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {out.paid ? (
          <p class="paid-note" role="note">
            <strong>Paid ranking.</strong> {out.disclosure}
          </p>
        ) : null}
        <p>{out.description}</p>
        <Cards>
          {out.items.map((i: any) => (
            <Card s={i.listing} rank={i.rank} metric={boardMetric(i)} badge={out.paid ? 'Paid' : undefined} />
          ))}
        </Cards>
        <Pager path={`/leaderboards/${out.board}`} params={queryOf(url, ['week'])} page={out.page} hasMore={out.has_more} />
      </>
    ),
  };
};
