-- Community integrity: review hiding, vote signals and the integrity report, vote clusters, re-awarding, suspensions.

-- Whether a review is hidden now, written into reviews.flagged (which the public reads filter on).
create or replace function review_recheck(p_review bigint) returns boolean language plpgsql as $$
declare
  hide boolean;
begin
  select case when r.moderation = 'removed' then true
              else (select count(*) from review_flags f join users u on u.id = f.user_id
                    where f.review_id = r.id and f.resolved_at is null and u.suspended_at is null
                      and f.created_at - u.created_at >= make_interval(days => s.review_flagger_min_age_days)) >= s.review_hide_flags end
    into hide
  from reviews r join listings l on l.id = r.listing_id join sites s on s.id = l.site_id
  where r.id = p_review;
  if hide is null then return null; end if;
  update reviews set flagged = hide where id = p_review and flagged is distinct from hide;
  return hide;
end $$;
comment on function review_recheck is 'Sets reviews.flagged (hidden) from the site team''s decision and the unresolved flags of distinct, unsuspended accounts old enough when they flagged; returns whether the review is hidden.';

create or replace function vote_network_hash(p_network text) returns bytea language sql stable as $$
  -- sha256 over the secret key and the network: the fixed layout leaves no room for extension.
  select case when p_network is null then null
              else sha256(convert_to((select key from vote_network_key) || ':' || p_network, 'UTF8')) end
$$;
comment on function vote_network_hash is 'The keyed hash of a network prefix (a /24 or /48 written as text) stored in vote_signals.network.';

create or replace function record_vote(p_listing bigint, p_user bigint, p_network text, p_ua_family text, p_sign_in text, p_visitor text)
returns text language plpgsql as $$
declare
  r text;
  today date := (now() at time zone 'utc')::date;
begin
  r := cast_vote(p_listing, p_user);
  if r <> 'voted' then return r; end if;
  insert into vote_signals (vote_id, account_age, sign_in, network, ua_family, visited_before)
  select v.id, greatest(v.created_at - u.created_at, interval '0'), p_sign_in, vote_network_hash(p_network), p_ua_family,
         -- The listing page counted this visitor today (record_listing_view's hash of the same visitor).
         exists (select from view_salts s join listing_view_visitors x on x.day = s.day
                 where s.day = today and x.listing_id = p_listing
                   and x.visitor = sha256(convert_to(s.salt || ':' || p_listing::text || ':' || p_visitor, 'UTF8')))
  from votes v join users u on u.id = v.user_id
  where v.listing_id = p_listing and v.user_id = p_user
  on conflict (vote_id) do nothing;
  return r;
end $$;
comment on function record_vote is 'cast_vote, and the first time a person votes for the listing the vote''s signals (vote_signals). Returns what cast_vote returns.';

create or replace function purge_vote_signals() returns int language sql as $$
  with d as (delete from vote_signals where created_at < now() - interval '400 days' returning 1) select count(*)::int from d
$$;
comment on function purge_vote_signals is 'Deletes vote signals older than 400 days (the votes themselves stay).';

-- Bursts: votes on one listing each cast within 10 minutes of the one before, at least 5 in a run.
create or replace function launch_integrity(p_listings bigint[])
returns table (listing_id bigint, votes int, counted_votes int, votes_with_signals int, new_account_votes int,
               top_network_votes int, burst_votes int, discounted_votes int, discounted jsonb)
language sql stable as $$
  with v as (
    select vo.id, vo.listing_id, vo.created_at, vo.discounted_at, vo.discount_reason, s.vote_id is not null as has_signals,
           s.network, s.account_age,
           exists (select from users su where su.id = vo.user_id and su.suspended_at is not null) as suspended
    from unnest(p_listings) x(id) join listings li on li.id = x.id
    join votes vo on vo.listing_id = li.id
      and vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
      and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc')
    left join vote_signals s on s.vote_id = vo.id),
  starts as (
    select v.listing_id, v.id, v.created_at,
           case when lag(v.created_at) over w is null or v.created_at - lag(v.created_at) over w > interval '10 minutes' then 1 else 0 end as starts
    from v window w as (partition by v.listing_id order by v.created_at, v.id)),
  runs as (select s.listing_id, sum(s.starts) over (partition by s.listing_id order by s.created_at, s.id) as run from starts s),
  bursts as (select b.listing_id, sum(b.n)::int as n
             from (select r.listing_id, r.run, count(*) as n from runs r group by 1, 2 having count(*) >= 5) b group by 1),
  nets as (select z.listing_id, max(z.n)::int as top
           from (select v.listing_id, v.network, count(*) as n from v where v.network is not null group by 1, 2) z group by 1),
  disc as (select z.listing_id, jsonb_agg(jsonb_build_object('reason', z.discount_reason, 'votes', z.n) order by z.n desc, z.discount_reason) as d
           from (select v.listing_id, v.discount_reason, count(*)::int as n from v where v.discounted_at is not null group by 1, 2) z group by 1)
  select x.id,
         count(v.id)::int,
         count(v.id) filter (where v.discounted_at is null and not v.suspended)::int,
         count(v.id) filter (where v.has_signals)::int,
         count(v.id) filter (where v.account_age < interval '24 hours')::int,
         coalesce(max(n.top), 0)::int,
         coalesce(max(b.n), 0)::int,
         count(v.id) filter (where v.discounted_at is not null)::int,
         coalesce((select d.d from disc d where d.listing_id = x.id), '[]'::jsonb)
  from unnest(p_listings) x(id)
  left join v on v.listing_id = x.id
  left join nets n on n.listing_id = x.id
  left join bursts b on b.listing_id = x.id
  group by x.id
$$;
comment on function launch_integrity is 'Per listing, over the votes cast during its launch week: all votes, those that count, those with signals, from accounts under 24 hours old, the most from one network, those in bursts (runs of at least 5 votes each within 10 minutes of the one before), and those discounted with their reasons.';

create or replace function suspicious_vote_clusters(p_site int, p_week date)
returns table (listing_id bigint, kind text, votes int, new_accounts int, unvisited int, first_vote timestamptz, last_vote timestamptz,
               accounts_created_within interval, vote_ids bigint[])
language sql stable as $$
  with v as (
    select vo.id, vo.listing_id, vo.created_at, u.created_at as account_created, s.network, s.visited_before
    from listings li
    join votes vo on vo.listing_id = li.id
      and vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
      and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc')
    join users u on u.id = vo.user_id
    left join vote_signals s on s.vote_id = vo.id
    where li.site_id = p_site and li.launch_week = p_week and vo.discounted_at is null),
  -- One network, one burst: votes from the same network each within 10 minutes of the one before.
  net as (
    select v.*, case when lag(v.created_at) over w is null or v.created_at - lag(v.created_at) over w > interval '10 minutes' then 1 else 0 end as starts
    from v where v.network is not null window w as (partition by v.listing_id, v.network order by v.created_at, v.id)),
  net_runs as (select n.*, sum(n.starts) over (partition by n.listing_id, n.network order by n.created_at, n.id) as run from net n),
  -- Accounts created together: voters under a week old whose accounts were made within 10 minutes of the one before.
  acc as (
    select v.*, case when lag(v.account_created) over w is null or v.account_created - lag(v.account_created) over w > interval '10 minutes' then 1 else 0 end as starts
    from v where v.created_at - v.account_created < interval '7 days' window w as (partition by v.listing_id order by v.account_created, v.id)),
  acc_runs as (select a.*, sum(a.starts) over (partition by a.listing_id order by a.account_created, a.id) as run from acc a),
  -- No prior visit, one burst: votes from people who had not opened the listing, each within 10 minutes of the one before.
  cold as (
    select v.*, case when lag(v.created_at) over w is null or v.created_at - lag(v.created_at) over w > interval '10 minutes' then 1 else 0 end as starts
    from v where v.visited_before = false window w as (partition by v.listing_id order by v.created_at, v.id)),
  cold_runs as (select c.*, sum(c.starts) over (partition by c.listing_id order by c.created_at, c.id) as run from cold c),
  clusters as (
    select r.listing_id, 'network' as kind, array_agg(r.id order by r.id) as ids from net_runs r group by r.listing_id, r.network, r.run having count(*) >= 5
    union all
    select r.listing_id, 'accounts', array_agg(r.id order by r.id) from acc_runs r group by r.listing_id, r.run having count(*) >= 5
    union all
    select r.listing_id, 'no_visit', array_agg(r.id order by r.id) from cold_runs r group by r.listing_id, r.run having count(*) >= 10)
  select c.listing_id, c.kind, cardinality(c.ids), s.new_accounts, s.unvisited, s.first_vote, s.last_vote, s.within, c.ids
  from clusters c
  cross join lateral (
    select count(*) filter (where v.created_at - v.account_created < interval '24 hours')::int as new_accounts,
           count(*) filter (where v.visited_before = false)::int as unvisited,
           min(v.created_at) as first_vote, max(v.created_at) as last_vote,
           max(v.account_created) - min(v.account_created) as within
    from v where v.id = any (c.ids)) s
  order by cardinality(c.ids) desc, c.listing_id, c.kind, s.first_vote
$$;
comment on function suspicious_vote_clusters is 'Clusters among the counted votes on a week''s launches (cast during the week): at least 5 from one network in one burst, at least 5 from accounts under a week old created together, or at least 10 without a prior visit in one burst. Each with its vote ids.';

create or replace function reaward_week(p_site int, p_week date) returns int language plpgsql as $$
begin
  perform refresh_listing_stats();
  if p_week + 7 > (now() at time zone 'utc')::date then return 0; end if;
  -- Awards are derived from weekly_ranking; the audit row of the change that called this keeps what they were.
  delete from awards where site_id = p_site and week = p_week;
  return award_week(p_site, p_week);
end $$;
comment on function reaward_week is 'Brings counters up to date and grants a finished week''s awards again from weekly_ranking (after votes were discounted or restored).';

create or replace function suspend_user(p_user bigint, p_reason text) returns boolean language plpgsql as $$
begin
  update users set suspended_at = now(), suspended_reason = p_reason where id = p_user and suspended_at is null;
  if not found then return false; end if;
  update sessions set ended_at = now() where user_id = p_user and ended_at is null;
  update api_keys set revoked_at = now() where user_id = p_user and revoked_at is null;
  update oauth_tokens set revoked_at = now()
    where revoked_at is null and grant_id in (select id from oauth_grants where user_id = p_user);
  update oauth_grants set revoked_at = now() where user_id = p_user and revoked_at is null;
  insert into listing_stats_dirty
    select listing_id from votes where user_id = p_user union select listing_id from reviews where user_id = p_user
    union select listing_id from follows where user_id = p_user;
  perform review_recheck(review_id) from review_flags where user_id = p_user;
  return true;
end $$;
comment on function suspend_user is 'Suspends an account: ends its sessions, revokes its API keys and OAuth grants and tokens; its votes, reviews, follows and flags stop counting (kept).';

create or replace function restore_user(p_user bigint) returns boolean language plpgsql as $$
begin
  update users set suspended_at = null, suspended_reason = null where id = p_user and suspended_at is not null;
  if not found then return false; end if;
  insert into listing_stats_dirty
    select listing_id from votes where user_id = p_user union select listing_id from reviews where user_id = p_user
    union select listing_id from follows where user_id = p_user;
  perform review_recheck(review_id) from review_flags where user_id = p_user;
  return true;
end $$;
comment on function restore_user is 'Lifts a suspension: the account''s votes, reviews, follows and flags count again (it signs in anew; ended sessions and revoked keys stay ended).';
