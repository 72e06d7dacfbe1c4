-- A listing's summary, as every list shows it: the JSON form of sql/queries/summaries.ts (whose rows
-- form lists the same members; sql/queries/summaries.test.ts holds the two equal).

-- A one-row set-returning function, called from FROM with plain column arguments: PostgreSQL then
-- inlines it into the calling statement, planned once with it. As a scalar function (it holds a
-- subquery, so it is never inlined) its query was planned anew on every call: about a third of
-- its cost in a search of 20 listings.
drop function if exists listing_summaries_json(bigint[], text);
create or replace function listing_summaries(ids bigint[], profile_base text) returns setof json
language sql stable parallel safe rows 1 as $$
  select coalesce((
    select json_agg(json_build_object(
      'id', l.id::int, 'slug', l.slug, 'name', l.name, 'url', l.url, 'profile_url', profile_base || l.slug,
      'tagline', l.tagline, 'logo_url', l.logo_url, 'status', l.status, 'plan', l.plan,
      'category', case when c.id is null then null else json_build_object('slug', c.slug, 'name', c.name) end,
      'pricing_model', l.pricing_model, 'country', l.country,
      'launch_week', to_char(l.launch_week, 'YYYY-MM-DD'),
      'launched_at', to_char(l.launched_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
      'votes', coalesce(s.votes, 0)::int, 'follows', coalesce(s.follows, 0)::int, 'views', coalesce(s.views, 0)::int)
      order by x.ord)
    from unnest(ids) with ordinality as x(id, ord)
    join listings l on l.id = x.id
    left join categories c on c.id = l.primary_category_id
    left join listing_stats s on s.listing_id = l.id), '[]'::json)
$$;
comment on function listing_summaries(bigint[], text) is 'One row: the summaries of the listings ids names, in their order, as a JSON array (profile_base: the site''s listing URL, slug appended).';
