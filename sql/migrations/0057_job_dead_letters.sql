-- Jobs whose payload does not match their job's schema or version: retrying cannot help, so the
-- worker records the payload and the reason here and completes the job (graphile-worker then
-- deletes it). Operators read them here; fixing the producer and re-adding the job is theirs.

create table job_dead_letters (
  id bigint generated always as identity primary key,
  job_id bigint not null unique,
  task text not null check (length(task) <= 200),
  payload jsonb,
  error text not null check (length(error) <= 2000),
  attempts int not null check (attempts >= 1),
  failed_at timestamptz not null default now()
);
comment on table job_dead_letters is 'Jobs set aside without retries because their payload did not match the job (wrong field, unknown field, another version): the task, the payload as queued and why it was refused. job_id is graphile-worker''s id of the completed job (unique: a redelivered job is recorded once).';
