-- What a listing page shows beside the listing's profile, written once for the page and for the
-- operations that answer the same facts (get_badges).

-- The badge rules (sql/queries/badges.ts describes them, and holds the top-rated thresholds its
-- callers pass), in display order. A function of the listing and its counters rather than of an
-- id: its callers have both rows at hand already.
create or replace function listing_badge_rows(l listings, s listing_stats, p_top_min_reviews int, p_top_min_avg float8) returns json
language sql stable as $$
  select coalesce(json_agg(json_build_object('kind', b.kind, 'rank', b.rank, 'week', b.week,
                                             'rating_avg', b.rating_avg, 'rating_count', b.rating_count)
                           order by b.ord, b.week desc), '[]'::json)
  from (
    select 1 as ord, 'listed' as kind, null::int as rank, null::text as week, null::float8 as rating_avg, null::int as rating_count
    union all select 2, 'launched', null, null, null, null where l.status = 'live'
    union all select 3, 'featured', null, null, null, null
              where l.plan = 'paid' or exists (select 1 from listing_featured f where f.listing_id = l.id and now() >= f.starts_at and now() < f.ends_at)
    union all select 4, 'verified', null, null, null, null
              where exists (select 1 from company_owners co join claims c on c.id = co.claim_id
                            where co.company_id = l.company_id and co.user_id = l.owner_user_id and co.role = 'owner'
                              and c.status = 'verified' and c.method <> 'email')
    union all select 5, 'top-rated', null, null, s.rating_avg, s.rating_count
              where l.status = 'live' and s.rating_count >= p_top_min_reviews and s.rating_avg >= p_top_min_avg
    union all select 6, 'award-' || to_char(a.week, 'YYYY-MM-DD'), a.rank, to_char(a.week, 'YYYY-MM-DD'), null, null
              from awards a where a.listing_id = l.id and a.site_id = l.site_id
  ) b
$$;
comment on function listing_badge_rows(listings, listing_stats, int, float8) is 'The badges a listing may show, in display order, as a JSON array of {kind, rank, week, rating_avg, rating_count}: listed always; launched when live; featured on the paid plan or in a running featured period; verified when its owner proved control of the domain (not by e-mail); top-rated when live with at least p_top_min_reviews genuine reviews averaging p_top_min_avg or more; one award-YYYY-MM-DD per Launch of the Week award. get_badges and the listing page read it.';

-- A listing's reviews as its page shows them, newest first: hidden ones (enough flags, or removed
-- by the site team) and those of suspended accounts left out; reviews by the listing's owner from
-- before owners were refused are shown but marked (they never count).
create or replace function listing_page_reviews(p_listing bigint, p_owner bigint, p_limit int) returns json
language sql stable as $$
  select coalesce(json_agg(json_build_object(
           'id', r.id, 'rating', r.rating, 'body', r.body, 'author', coalesce(nullif(r.name, ''), 'A member'),
           'created_at', to_char(r.created_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           'updated_at', to_char(r.updated_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
           'by_owner', r.user_id is not distinct from p_owner, 'owner_reply', r.owner_reply,
           'owner_reply_at', to_char(r.owner_reply_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
         order by r.created_at desc, r.id desc), '[]'::json)
  from (select r.*, u.name from reviews r join users u on u.id = r.user_id
        where r.listing_id = p_listing and not r.flagged and u.suspended_at is null
        order by r.created_at desc, r.id desc limit p_limit) r
$$;
comment on function listing_page_reviews(bigint, bigint, int) is 'The newest p_limit reviews shown on a listing page (not flagged, author not suspended), newest first, as a JSON array; by_owner marks those by p_owner (the listing''s owner).';
