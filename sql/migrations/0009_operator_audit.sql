-- Every change an operator makes through the CLI (prices, site settings, moderation, reviews,
-- done-for-you tasks): who, when, what, and the row before and after.
create table operator_audit (
  id bigserial primary key,
  actor text not null check (length(actor) between 1 and 200),
  action text not null check (action ~ '^[a-z][a-z0-9_.-]{0,79}$'),
  target text not null check (length(target) <= 500),
  before jsonb,
  after jsonb,
  at timestamptz not null default now()
);
comment on table operator_audit is 'Audit trail of operator commands: who changed what, when, with the state before and after.';
create index operator_audit_at on operator_audit (at desc, id desc);
create index operator_audit_target on operator_audit (target, at desc);
