-- Views (materialized views stay in their migrations: they cannot be replaced in place).

create or replace view moderation_feed as
 SELECT v.id,
    v.site_id,
    s.key AS site_key,
    v.listing_id,
    l.slug,
    l.name,
    v.operation,
    u.email AS editor_email,
    v.credential,
    v.before,
    v.after,
    v.created_at
   FROM listing_versions v
     JOIN listings l ON l.id = v.listing_id
     JOIN sites s ON s.id = v.site_id
     LEFT JOIN users u ON u.id = v.user_id;
comment on view moderation_feed is 'The site team''s before/after copy of every owner edit, per site, newest last by id (npm run ops -- moderation).';

create or replace view weekly_ranking as
 SELECT listing_id,
    site_id,
    launch_week AS week,
    week_votes AS votes,
    row_number() OVER (PARTITION BY site_id, launch_week ORDER BY week_votes DESC, launched_at, listing_id)::integer AS rank,
    count(*) OVER (PARTITION BY site_id, launch_week)::integer AS total
   FROM listing_stats s
  WHERE live AND launch_week IS NOT NULL;
comment on view weekly_ranking is 'Per launch week, live launches ranked by the votes cast during that week (as of the last refresh); awards follow it. Pages walk listing_stats_week_rank instead.';

-- What counts of the community's acts: discounted votes and the votes and follows of suspended
-- people are kept but count nowhere (rankings, boards, awards, live counts, owners' statistics).
create or replace view counted_votes as
 SELECT v.listing_id,
    v.user_id,
    v.created_at
   FROM votes v
  WHERE v.discounted_at IS NULL AND NOT (EXISTS ( SELECT FROM users su WHERE su.id = v.user_id AND su.suspended_at IS NOT NULL));
comment on view counted_votes is 'The votes that count: not discounted by the site team, not by a suspended account.';

create or replace view counted_follows as
 SELECT f.listing_id,
    f.user_id,
    f.created_at
   FROM follows f
  WHERE NOT (EXISTS ( SELECT FROM users su WHERE su.id = f.user_id AND su.suspended_at IS NOT NULL));
comment on view counted_follows is 'The follows that count: not by a suspended account.';
