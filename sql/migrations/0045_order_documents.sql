-- Invoices and credit notes of orders: the seller's details on the site, gap-free numbers per
-- seller, kind and year, the stored PDF bytes (never regenerated), and mail that carries one.

alter table sites
  add column seller_name text check (length(seller_name) <= 200),
  add column seller_address text check (length(seller_address) <= 1000),
  add column seller_vat_id text check (length(seller_vat_id) <= 32);
comment on column sites.seller_name is 'The legal name printed as the seller on invoices and credit notes (ops site set --seller-name).';
comment on column sites.seller_address is 'The seller''s postal address on invoices, lines separated by newlines (ops site set --seller-address).';
comment on column sites.seller_vat_id is 'The seller''s VAT ID on invoices (ops site set --seller-vat-id).';

create table document_counters (
  site_id int not null references sites(id) on delete cascade,
  kind text not null check (kind in ('invoice', 'credit_note')),
  year int not null check (year between 2000 and 9999),
  last_number int not null check (last_number >= 1),
  primary key (site_id, kind, year)
);
comment on table document_counters is 'The last number issued per seller (site), kind of document and calendar year; advanced only inside the transaction that stores the document, so numbers have no gaps.';

create table order_documents (
  id bigserial primary key,
  order_id bigint not null references orders(id) on delete restrict,
  site_id int not null references sites(id) on delete restrict,
  kind text not null check (kind in ('invoice', 'credit_note')),
  year int not null,
  seq int not null check (seq >= 1),
  number text not null check (length(number) <= 40),
  refers_to bigint references order_documents(id) on delete restrict,
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  net_cents bigint not null,
  vat_cents bigint not null,
  total_cents bigint not null,
  issued_at timestamptz not null default now(),
  pdf bytea not null check (octet_length(pdf) between 100 and 5000000),
  unique (site_id, kind, year, seq),
  check ((kind = 'credit_note') = (refers_to is not null))
);
create unique index order_documents_one_invoice on order_documents (order_id) where kind = 'invoice';
create index order_documents_order on order_documents (order_id, issued_at);
comment on table order_documents is 'Invoices and credit notes as issued: the PDF bytes are stored once and served as they are. A credit note refers to the invoice it corrects (amounts negative).';

alter table mail_outbox add column document_id bigint references order_documents(id) on delete restrict;
comment on column mail_outbox.document_id is 'A document sent with the mail as a PDF attachment.';
