-- Hygiene: every foreign key says what deleting its target does, and every function says what it
-- is for. No tables are made here. sql/hygiene.test.ts keeps it so.
--
-- The rule, per what the referencing row means:
--   cascade   the row is part of its target and means nothing without it (a site's awards,
--             prices and drafts; a person's votes, follows and reviews);
--   set null  the row stands on its own and only loses a link (a listing without its owner, a
--             founder profile without its account, a paid contribution without its payer);
--   restrict  the target is the row's substance and must not vanish under it (a listing's site,
--             company and categories; an interview question that has answers).
-- Nothing in the service deletes sites, users, companies, categories or products today; these
-- say what happens when an operator does.

alter table awards drop constraint awards_site_id_fkey,
  add constraint awards_site_id_fkey foreign key (site_id) references sites(id) on delete cascade;
alter table billboard_contributions drop constraint billboard_contributions_user_id_fkey,
  add constraint billboard_contributions_user_id_fkey foreign key (user_id) references users(id) on delete set null;
alter table drafts drop constraint drafts_site_id_fkey,
  add constraint drafts_site_id_fkey foreign key (site_id) references sites(id) on delete cascade;
alter table follows drop constraint follows_user_id_fkey,
  add constraint follows_user_id_fkey foreign key (user_id) references users(id) on delete cascade;
alter table founders drop constraint founders_user_id_fkey,
  add constraint founders_user_id_fkey foreign key (user_id) references users(id) on delete set null;
alter table interview_answers drop constraint interview_answers_question_id_fkey,
  add constraint interview_answers_question_id_fkey foreign key (question_id) references interview_questions(id) on delete restrict;
alter table listing_categories drop constraint listing_categories_category_id_fkey,
  add constraint listing_categories_category_id_fkey foreign key (category_id) references categories(id) on delete restrict;
alter table listings drop constraint listings_company_id_fkey,
  add constraint listings_company_id_fkey foreign key (company_id) references companies(id) on delete restrict;
alter table listings drop constraint listings_owner_user_id_fkey,
  add constraint listings_owner_user_id_fkey foreign key (owner_user_id) references users(id) on delete set null;
alter table listings drop constraint listings_primary_category_id_fkey,
  add constraint listings_primary_category_id_fkey foreign key (primary_category_id) references categories(id) on delete restrict;
alter table listings drop constraint listings_site_id_fkey,
  add constraint listings_site_id_fkey foreign key (site_id) references sites(id) on delete restrict;
alter table product_prices drop constraint product_prices_product_code_fkey,
  add constraint product_prices_product_code_fkey foreign key (product_code) references products(code) on delete cascade;
alter table product_prices drop constraint product_prices_site_id_fkey,
  add constraint product_prices_site_id_fkey foreign key (site_id) references sites(id) on delete cascade;
alter table reviews drop constraint reviews_user_id_fkey,
  add constraint reviews_user_id_fkey foreign key (user_id) references users(id) on delete cascade;
alter table votes drop constraint votes_user_id_fkey,
  add constraint votes_user_id_fkey foreign key (user_id) references users(id) on delete cascade;

comment on function words_of(text[]) is 'Keywords joined with spaces for the search vectors: array_to_string is only stable, this is immutable in practice.';
comment on function categories_two_levels() is 'Trigger on categories: a child''s parent must itself be top-level (the tree is two levels deep).';
comment on function listing_categories_at_most_four() is 'Trigger on listing_categories: a listing has its primary category and at most 3 extra ones.';

comment on table schema_migrations is 'The migrations applied, by file name (sql/migrate.ts inserts the row before running the file, so a concurrent migrator fails cleanly).';
