-- Edits made on the site's own pages (signed in by e-mail link, no API key) are recorded with the
-- credential session:<user id>, beside key:<id> and grant:<id>.
alter table listing_versions drop constraint listing_versions_credential_check;
alter table listing_versions add constraint listing_versions_credential_check check (credential ~ '^(key|grant|session):[0-9]{1,19}$');
comment on column listing_versions.credential is 'The credential the edit was made with: key:<api key id>, grant:<oauth grant id>, or session:<user id> for the site''s own pages.';
