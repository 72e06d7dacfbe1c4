-- The words a category goes by besides its name and description ("kanban", "gantt" for project
-- management): the drafters match a site's own sentences against name, description and keywords
-- to choose its categories, so a site that never names its category still finds it.
alter table categories
  add column keywords text[] not null default '{}'
    check (cardinality(keywords) <= 30 and array_position(keywords, null) is null and length(array_to_string(keywords, ' ')) <= 2000);
comment on column categories.keywords is 'Lower-case words and short phrases the category goes by (at most 30), matched with its name and description when a draft''s categories are chosen.';
