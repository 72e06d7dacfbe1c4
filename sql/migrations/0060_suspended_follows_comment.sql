-- A suspended account's follows stopped counting too (counted_follows); the column says so.
comment on column users.suspended_at is 'When the site team suspended the account (null: not suspended); its votes, follows, reviews and flags do not count meanwhile.';
