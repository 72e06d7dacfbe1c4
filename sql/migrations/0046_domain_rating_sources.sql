-- Every Domain Rating says where it came from: an operator's CSV import (`ops dr import`, also the
-- seed's demo figures) or the configured provider's monthly refresh. Nothing else may write one.
alter table domain_ratings add column source text not null default 'import' check (source in ('import', 'provider'));
comment on column domain_ratings.source is 'import: from a CSV an operator imported (ops dr import; the demo seed counts as one); provider: from the Domain Rating provider''s monthly refresh.';

create table domain_rating_runs (
  id bigserial primary key,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  domains int not null default 0,
  rated int not null default 0,
  failed int not null default 0,
  last_error text check (length(last_error) <= 2000)
);
comment on table domain_rating_runs is 'Each monthly refresh through the Domain Rating provider: how many domains were asked, rated and failed.';
