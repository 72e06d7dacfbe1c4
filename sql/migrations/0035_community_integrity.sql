-- Community integrity: reviews nobody can silence alone, votes anyone can audit, and moderation of
-- listings and people by the site team. Nothing here is deleted to moderate: reviews, flags and
-- votes are marked (and the marks undone), and operator_audit records every decision.

-- How many flags hide a review, and how old an account must be for its flag to count.
alter table sites
  add column review_hide_flags int not null default 3 check (review_hide_flags between 1 and 100),
  add column review_flagger_min_age_days int not null default 7 check (review_flagger_min_age_days between 0 and 365);
comment on column sites.review_hide_flags is 'Flags from distinct accounts (each older than review_flagger_min_age_days when it flagged) that hide a review until the site team decides.';
comment on column sites.review_flagger_min_age_days is 'How many days old an account must be for its flag of a review to count towards review_hide_flags.';

-- Suspended people: their sessions, keys and grants are ended when suspended; their votes, reviews
-- and flags stay stored but stop counting until they are restored.
alter table users
  add column suspended_at timestamptz,
  add column suspended_reason text check (length(suspended_reason) between 1 and 500);
create index users_suspended on users (id) where suspended_at is not null;
comment on column users.suspended_at is 'When the site team suspended the account (null: not suspended); its votes, reviews and flags do not count meanwhile.';
comment on column users.suspended_reason is 'Why the account was suspended, as told to the person.';

-- Reviews: reviews.flagged now means hidden (not shown, not counted): by enough flags or by the site team.
alter table reviews
  add column moderation text check (moderation in ('kept', 'removed')),
  add column moderated_at timestamptz,
  add column moderation_reason text check (length(moderation_reason) between 1 and 500),
  add column owner_reply text check (length(btrim(owner_reply)) between 1 and 2000),
  add column owner_reply_at timestamptz,
  add column owner_reply_by bigint references users(id) on delete set null;
comment on column reviews.flagged is 'Hidden: not shown and not counted. Set when flags from enough distinct aged accounts arrive (sites.review_hide_flags) or when the site team removes the review; see review_recheck.';
comment on column reviews.moderation is 'The site team''s last decision on the flagged review: kept (its flags so far no longer count) or removed (hidden for good, still stored).';
comment on column reviews.moderated_at is 'When the site team decided on the review.';
comment on column reviews.moderation_reason is 'Why the site team kept or removed the review, as mailed to the reviewer and the flaggers.';
comment on column reviews.owner_reply is 'The listing owner''s one public answer to the review, shown under it.';
comment on column reviews.owner_reply_at is 'When the owner answered.';
comment on column reviews.owner_reply_by is 'Which owner answered.';

alter table review_flags add column resolved_at timestamptz;
comment on column review_flags.resolved_at is 'When the site team decided on the review: a resolved flag is kept as a record but no longer counts towards hiding it.';
comment on table review_flags is 'Who flagged which review. A review is hidden when flags from sites.review_hide_flags distinct accounts, each older than sites.review_flagger_min_age_days when it flagged, are unresolved; ops reviews keep|remove decides and resolves them.';

-- Whether a review is hidden now, written into reviews.flagged (which the public reads filter on).
create function review_recheck(p_review bigint) returns boolean language plpgsql as $$
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

-- Flags that hid reviews under the old one-flag rule are now counted by the new rule.
select review_recheck(id) from reviews where id in (select review_id from review_flags);

-- Votes: a stable id to name them by, and the site team's discount (kept, never deleted).
alter table votes
  add column id bigint generated always as identity,
  add column discounted_at timestamptz,
  add column discount_reason text check (length(discount_reason) between 1 and 500),
  add column discounted_by text check (length(discounted_by) between 1 and 200),
  add constraint votes_discount_complete check ((discounted_at is null) = (discount_reason is null));
create unique index votes_id on votes (id);
comment on column votes.id is 'A vote''s number, by which the site team names votes to discount or restore.';
comment on column votes.discounted_at is 'When the site team discounted the vote: kept, shown in the launch integrity report, but counted by no ranking, board or award.';
comment on column votes.discount_reason is 'Why the vote was discounted; published in the launch integrity report.';
comment on column votes.discounted_by is 'Who in the site team discounted the vote.';

-- The key of the network hash: random, made here, never leaves the database.
create table vote_network_key (
  only_row boolean primary key default true check (only_row),
  key text not null
);
insert into vote_network_key (key) values (gen_random_uuid()::text || gen_random_uuid()::text);
comment on table vote_network_key is 'The secret key of vote_signals.network (one row): networks are compared by keyed hash, never stored.';

create table vote_signals (
  vote_id bigint primary key references votes(id) on delete cascade,
  account_age interval not null,
  sign_in text not null check (sign_in ~ '^[a-z_]{1,40}$'),
  network bytea,
  ua_family text not null check (ua_family ~ '^[a-z0-9_]{1,40}$'),
  visited_before boolean not null,
  created_at timestamptz not null default now()
);
create index vote_signals_created on vote_signals (created_at);
comment on table vote_signals is 'What is needed to judge a vote, without the address: the account''s age when it voted, how it signed in, a keyed hash of its /24 (IPv4) or /48 (IPv6) network, its browser family, and whether it had viewed the listing before. Kept 400 days (purge_vote_signals).';

create function vote_network_hash(p_network text) returns bytea language sql stable as $$
  -- sha256 over the secret key and the network: the fixed layout leaves no room for extension.
  select case when p_network is null then null
              else sha256(convert_to((select key from vote_network_key) || ':' || p_network, 'UTF8')) end
$$;
comment on function vote_network_hash is 'The keyed hash of a network prefix (a /24 or /48 written as text) stored in vote_signals.network.';

create function record_vote(p_listing bigint, p_user bigint, p_network text, p_ua_family text, p_sign_in text, p_visitor text)
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

create function purge_vote_signals() returns int language sql as $$
  with d as (delete from vote_signals where created_at < now() - interval '400 days' returning 1) select count(*)::int from d
$$;
comment on function purge_vote_signals is 'Deletes vote signals older than 400 days (the votes themselves stay).';

-- Listings taken off every public surface by the site team (status hidden), with what to restore.
create table listing_holds (
  listing_id bigint primary key references listings(id) on delete cascade,
  previous_status text not null,
  previous_status_reason text,
  previous_status_detail text,
  reason text not null check (length(reason) between 1 and 500),
  actor text not null check (length(actor) between 1 and 200),
  held_at timestamptz not null default now()
);
comment on table listing_holds is 'Listings the site team hid (status hidden, status_reason hidden_by_site_team, status_detail the reason their owner sees in get_my_listing) with the status ops listings restore puts back.';


-- Bursts: votes on one listing each cast within 10 minutes of the one before, at least 5 in a run.
create function launch_integrity(p_listings bigint[])
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

create function suspicious_vote_clusters(p_site int, p_week date)
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

create function reaward_week(p_site int, p_week date) returns int language plpgsql as $$
begin
  perform refresh_listing_stats();
  if p_week + 7 > (now() at time zone 'utc')::date then return 0; end if;
  -- Awards are derived from weekly_ranking; the audit row of the change that called this keeps what they were.
  delete from awards where site_id = p_site and week = p_week;
  return award_week(p_site, p_week);
end $$;
comment on function reaward_week is 'Brings counters up to date and grants a finished week''s awards again from weekly_ranking (after votes were discounted or restored).';

create function suspend_user(p_user bigint, p_reason text) returns boolean language plpgsql as $$
begin
  update users set suspended_at = now(), suspended_reason = p_reason where id = p_user and suspended_at is null;
  if not found then return false; end if;
  update sessions set ended_at = now() where user_id = p_user and ended_at is null;
  update api_keys set revoked_at = now() where user_id = p_user and revoked_at is null;
  update oauth_tokens set revoked_at = now()
    where revoked_at is null and grant_id in (select id from oauth_grants where user_id = p_user);
  update oauth_grants set revoked_at = now() where user_id = p_user and revoked_at is null;
  insert into listing_stats_dirty select listing_id from votes where user_id = p_user union select listing_id from reviews where user_id = p_user;
  perform review_recheck(review_id) from review_flags where user_id = p_user;
  return true;
end $$;
comment on function suspend_user is 'Suspends an account: ends its sessions, revokes its API keys and OAuth grants and tokens; its votes, reviews and flags stop counting (kept).';

create function restore_user(p_user bigint) returns boolean language plpgsql as $$
begin
  update users set suspended_at = null, suspended_reason = null where id = p_user and suspended_at is not null;
  if not found then return false; end if;
  insert into listing_stats_dirty select listing_id from votes where user_id = p_user union select listing_id from reviews where user_id = p_user;
  perform review_recheck(review_id) from review_flags where user_id = p_user;
  return true;
end $$;
comment on function restore_user is 'Lifts a suspension: the account''s votes, reviews and flags count again (it signs in anew; ended sessions and revoked keys stay ended).';

-- Rankings count neither discounted votes nor suspended people's votes and reviews.
create or replace function refresh_listing_stats() returns void language plpgsql as $$
declare
  recount boolean;
begin
  -- One refresh at a time: a second caller waits, then finds little left to do.
  perform pg_advisory_xact_lock(hashtext('refresh_listing_stats'));
  with d as (delete from views_dirty where view_name = 'board_totals' returning 1) select count(*) > 0 into recount from d;
  create temp table noted on commit drop as
    with d as (delete from listing_stats_dirty returning listing_id) select distinct listing_id from d;
  if not recount and not exists (select from noted) then
    drop table noted;
    return;
  end if;
  alter table noted add primary key (listing_id);
  analyze noted;

  -- The noted listings' rows as they were. Probed one by one (offset 0 keeps the planner from
  -- hashing all of listing_stats for a few thousand rows).
  create temp table before on commit drop as
    select s.* from noted n cross join lateral (select * from listing_stats s where s.listing_id = n.listing_id offset 0) s;
  create temp table rated_before on commit drop as
    select r.* from noted n cross join lateral (select * from listing_domain_rating r where r.listing_id = n.listing_id offset 0) r;

  create temp table fresh on commit drop as
  select l.id as listing_id, l.site_id, l.status = 'live' as live, l.launch_week, l.launched_at,
         coalesce(v.votes, 0)::int as votes, coalesce(v.week_votes, 0)::int as week_votes,
         coalesce(v.trend_log, '-infinity')::float8 as trend_log,
         coalesce(f.follows, 0)::int as follows, coalesce(w.views, 0)::bigint as views,
         r.rating_avg, coalesce(r.rating_count, 0)::int as rating_count
  from noted n join listings l on l.id = n.listing_id
  left join (
    select z.listing_id, count(*) as votes, count(*) filter (where z.in_week) as week_votes,
           -- log-sum-exp: shifted by the largest term, so no exp() overflows
           max(z.top) + ln(sum(exp(greatest(z.x - z.top, -700)))) as trend_log
    from (select vo.listing_id, trend_x(vo.created_at) as x,
                 max(trend_x(vo.created_at)) over (partition by vo.listing_id) as top,
                 vo.created_at >= (li.launch_week::timestamp at time zone 'utc')
                   and vo.created_at < ((li.launch_week + 7)::timestamp at time zone 'utc') as in_week
          from noted n2 join votes vo on vo.listing_id = n2.listing_id join listings li on li.id = vo.listing_id
          -- Discounted votes and the votes of suspended people are kept but do not count.
          where vo.discounted_at is null and not exists (select from users su where su.id = vo.user_id and su.suspended_at is not null)) z
    group by z.listing_id) v on v.listing_id = l.id
  left join (select fo.listing_id, count(*) as follows from noted n3 join follows fo on fo.listing_id = n3.listing_id
             group by fo.listing_id) f on f.listing_id = l.id
  left join (select lv.listing_id, sum(lv.views) as views from noted n4 join listing_views lv on lv.listing_id = n4.listing_id
             group by lv.listing_id) w on w.listing_id = l.id
  left join (select rv.listing_id, round(avg(rv.rating)::numeric, 2)::float8 as rating_avg, count(*) as rating_count
             from noted n5 join reviews rv on rv.listing_id = n5.listing_id join listings ol on ol.id = rv.listing_id
             where not rv.flagged and rv.user_id is distinct from ol.owner_user_id
               and not exists (select from users su where su.id = rv.user_id and su.suspended_at is not null)
             group by rv.listing_id) r on r.listing_id = l.id;

  -- The latest Domain Rating of the noted listings' companies and its four-week change.
  create temp table rated on commit drop as
  select l.id as listing_id, l.site_id, l.status = 'live' as live, la.rating, la.measured_on, la.rating - e.rating as trend
  from noted n join listings l on l.id = n.listing_id
  cross join lateral (select d.rating, d.measured_on from domain_ratings d where d.company_id = l.company_id
                      order by d.measured_on desc limit 1) la
  left join lateral (select d.rating from domain_ratings d where d.company_id = l.company_id and d.measured_on <= la.measured_on - 28
                     order by d.measured_on desc limit 1) e on true;

  insert into listing_stats select * from fresh
  on conflict (listing_id) do update set
    site_id = excluded.site_id, live = excluded.live, launch_week = excluded.launch_week, launched_at = excluded.launched_at,
    votes = excluded.votes, week_votes = excluded.week_votes, trend_log = excluded.trend_log, follows = excluded.follows,
    views = excluded.views, rating_avg = excluded.rating_avg, rating_count = excluded.rating_count
  where (listing_stats.*) is distinct from (excluded.*);

  delete from listing_domain_rating r using noted n
  where r.listing_id = n.listing_id and not exists (select from rated x where x.listing_id = r.listing_id);
  insert into listing_domain_rating (listing_id, site_id, live, rating, measured_on, trend)
  select listing_id, site_id, live, rating, measured_on, trend from rated
  on conflict (listing_id) do update set site_id = excluded.site_id, live = excluded.live, rating = excluded.rating,
    measured_on = excluded.measured_on, trend = excluded.trend
  where (listing_domain_rating.*) is distinct from (excluded.*);

  perform refresh_category_members(recount);

  -- After a bulk load (a seed, a migration), fresh planner statistics: without them the boards'
  -- pages plan as if a handful of rows were ranked, and sort all of them.
  if (select count(*) from noted) > 10000 then
    analyze listing_stats;
    analyze listing_domain_rating;
    analyze category_members;
  end if;

  if recount then
    delete from board_totals;
    insert into board_totals (site_id, board, total)
    select site_id, 'community-all-time', count(*) from listing_stats where live and votes > 0 group by site_id
    union all
    select site_id, 'domain-rating', count(*) from listing_domain_rating where live group by site_id;
    delete from week_totals;
    insert into week_totals (site_id, week, total)
    select site_id, launch_week, count(*) from listing_stats where live and launch_week is not null group by site_id, launch_week;
  else
    -- Each size moves by what the noted listings count in it now less what they counted before.
    insert into board_totals (site_id, board, total)
    select x.site_id, x.board, sum(x.d) from (
      select site_id, 'community-all-time' as board, 1 as d from fresh where live and votes > 0
      union all select site_id, 'community-all-time', -1 from before where live and votes > 0
      union all select site_id, 'domain-rating', 1 from rated where live
      union all select site_id, 'domain-rating', -1 from rated_before where live) x
    group by x.site_id, x.board having sum(x.d) <> 0
    on conflict (site_id, board) do update set total = board_totals.total + excluded.total;
    create temp table week_moves on commit drop as
    select x.site_id, x.week, sum(x.d)::int as delta from (
      select site_id, launch_week as week, 1 as d from fresh where live and launch_week is not null
      union all select site_id, launch_week, -1 from before where live and launch_week is not null) x
    group by x.site_id, x.week having sum(x.d) <> 0;
    merge into week_totals t using week_moves m on t.site_id = m.site_id and t.week = m.week
    when matched and t.total + m.delta = 0 then delete
    when matched then update set total = t.total + m.delta
    when not matched then insert (site_id, week, total) values (m.site_id, m.week, m.delta);
    drop table week_moves;
  end if;

  drop table noted;
  drop table before;
  drop table rated_before;
  drop table fresh;
  drop table rated;
end $$;
comment on function refresh_listing_stats is 'Recomputes (counting only votes not discounted and reviews not hidden, neither by a suspended person) listing_stats (and Domain Ratings, category pages, board and week sizes) for the listings noted since the last call.';
