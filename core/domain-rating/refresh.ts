// The monthly refresh: every live listing's company domain is asked of the provider, a few at a
// time, and today's rating is recorded beside the earlier ones (the history the boards' trends use).
import type { Sql } from '../../sql/db.ts';
import type { DomainRatingProvider } from './provider.ts';
import { eachLimited } from '../each-limited.ts';

export interface RefreshResult {
  domains: number;
  rated: number;
  failed: number;
  errors: string[];
}

export async function refreshDomainRatings(sql: Sql, provider: DomainRatingProvider, concurrency: number): Promise<RefreshResult> {
  const [run] = await sql<{ id: string; today: string }[]>`
    insert into domain_rating_runs default values returning id::text, to_char(now() at time zone 'utc', 'YYYY-MM-DD') as today`;
  const companies = await sql<{ company_id: string; domain: string }[]>`
    select distinct c.id::text as company_id, lower(c.domain) as domain
    from companies c join listings l on l.company_id = c.id where l.status = 'live' order by 1`;
  const out: RefreshResult = { domains: companies.length, rated: 0, failed: 0, errors: [] };
  await eachLimited(companies, concurrency, async (c) => {
    try {
      const rating = await provider.rating(c.domain, run.today);
      if (rating === null) return;
      await sql`
        insert into domain_ratings (company_id, measured_on, rating, source) values (${c.company_id}, ${run.today}::date, ${rating}, 'provider')
        on conflict (company_id, measured_on) do update set rating = excluded.rating, source = 'provider'`;
      out.rated++;
    } catch (e) {
      out.failed++;
      if (out.errors.length < 20) out.errors.push(e instanceof Error ? e.message : String(e));
    }
  });
  await sql`update domain_rating_runs set finished_at = now(), domains = ${out.domains}, rated = ${out.rated}, failed = ${out.failed},
            last_error = ${out.errors[0]?.slice(0, 2000) ?? null} where id = ${run.id}`;
  return out;
}
