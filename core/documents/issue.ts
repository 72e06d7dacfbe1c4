// Issuing an order's documents (the issue_order_documents job): a paid order gets its invoice, a
// refunded one also a credit note that refers to it. Each is numbered, rendered, stored and mailed
// in one transaction under the order's row lock, so a retried or duplicated job issues nothing
// twice and a failed one leaves no number used.
import { transaction, type Sql } from '../../sql/db.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { orderRow, orderView, type OrderView } from '../orders/store.ts';
import { type DocumentContent, money, renderDocumentPdf } from './pdf.ts';
import { documentUrl } from './read.ts';

export type DocumentKind = 'invoice' | 'credit_note';

const PREFIX: Record<DocumentKind, string> = { invoice: 'INV', credit_note: 'CN' };
/** The printed number: kind, year and the sequence of that seller and year (INV-2026-000042). */
export const documentNumber = (kind: DocumentKind, year: number, seq: number) => `${PREFIX[kind]}-${year}-${String(seq).padStart(6, '0')}`;

interface Seller {
  site_id: number;
  name: string;
  address: string;
  vat_id: string | null;
}

async function sellerOf(tx: Sql, siteId: number): Promise<Seller> {
  const [s] = await tx<{ name: string; seller_name: string | null; seller_address: string | null; seller_vat_id: string | null; url: string }[]>`
    select name, seller_name, seller_address, seller_vat_id, url from sites where id = ${siteId}`;
  return { site_id: siteId, name: s.seller_name ?? s.name, address: s.seller_address ?? s.url, vat_id: s.seller_vat_id };
}

async function lineDetails(tx: Sql, o: OrderView): Promise<Map<number, string | null>> {
  const ids = o.lines.map((l) => l.listing_id).filter((id): id is number => id !== null);
  const names = new Map(
    (await tx<{ id: number; name: string }[]>`select id::int, name from listings where id = any(${ids}::bigint[])`).map((r) => [r.id, r.name] as const),
  );
  return new Map(
    o.lines.map((l) => {
      const parts = [
        l.listing_id !== null ? names.get(l.listing_id) : null,
        l.week ? `week of ${l.week}` : null,
        l.categories.length ? l.categories.join(', ') : null,
      ];
      const detail = parts.filter(Boolean).join(', ');
      return [l.position, detail || null];
    }),
  );
}

async function issue(
  tx: Sql,
  kind: DocumentKind,
  o: OrderView & { id: string; site_id: number; email: string },
  invoice: { id: string; number: string; issued_on: string } | null,
  siteUrl: string,
): Promise<void> {
  const seller = await sellerOf(tx, o.site_id);
  const [n] = await tx<{ year: number; seq: number; issued_on: string }[]>`
    select y as year, next_document_number(${o.site_id}, ${kind}, y) as seq, to_char(now() at time zone 'utc', 'YYYY-MM-DD') as issued_on
    from (select extract(year from now() at time zone 'utc')::int as y) x`;
  const number = documentNumber(kind, n.year, n.seq);
  const sign = kind === 'invoice' ? 1 : -1;
  const details = await lineDetails(tx, o);
  const content: DocumentContent = {
    kind,
    number,
    issued_on: n.issued_on,
    refers_to: invoice ? { number: invoice.number, issued_on: invoice.issued_on } : null,
    order_number: o.number,
    paid_on: o.paid_at?.slice(0, 10) ?? null,
    seller,
    buyer: { name: o.billing.name, address: o.billing.address, country: o.billing.country, vat_id: o.billing.vat_number, email: o.email },
    currency: o.currency,
    vat_rule: o.vat.rule,
    rate_basis_points: o.vat.rate_basis_points,
    lines: o.lines.map((l) => ({
      name: l.name,
      detail: details.get(l.position) ?? null,
      net_cents: sign * l.amount_cents,
      vat_cents: sign * l.vat_cents,
      total_cents: sign * l.total_cents,
    })),
    net_cents: sign * o.subtotal_cents,
    vat_cents: sign * o.vat_cents,
    total_cents: sign * o.total_cents,
    test_mode: o.test_mode,
  };
  const pdf = await renderDocumentPdf(content);
  const [doc] = await tx<{ id: string }[]>`
    insert into order_documents (order_id, site_id, kind, year, seq, number, refers_to, currency, net_cents, vat_cents, total_cents, pdf)
    values (${o.id}, ${o.site_id}, ${kind}, ${n.year}, ${n.seq}, ${number}, ${invoice?.id ?? null}, ${o.currency},
            ${content.net_cents}, ${content.vat_cents}, ${content.total_cents}, ${pdf})
    returning id::text`;
  const url = documentUrl(siteUrl, o.number, number);
  const what = kind === 'invoice' ? 'Invoice' : 'Credit note';
  await enqueueMail(tx, {
    to: o.email,
    kind: kind === 'invoice' ? 'invoice' : 'credit_note',
    subject: `${what} ${number} for order ${o.number}`,
    text: [
      kind === 'invoice'
        ? `Thank you for your order ${o.number}. Your invoice ${number} over ${money(o.total_cents, o.currency)} is attached.`
        : `Your order ${o.number} was refunded. Credit note ${number} over ${money(-o.total_cents, o.currency)}, correcting invoice ${invoice?.number}, is attached.`,
      `You can also download it while signed in: ${url}`,
    ].join('\n\n'),
    documentId: doc.id,
  });
}

/**
 * Issues what the order is due and does not have yet: an invoice once it was paid (paid, fulfilled
 * or refunded after payment), and a credit note once it was refunded. Returns the numbers issued now.
 */
export async function issueOrderDocuments(sql: Sql, orderId: number, siteUrl: string): Promise<string[]> {
  return transaction(sql, async (tx) => {
    const row = await orderRow(tx, { id: String(orderId) }, { forUpdate: true });
    if (!row?.paid_at) return [];
    const [meta] = await tx<{ site_id: number; email: string }[]>`
      select o.site_id, u.email from orders o join users u on u.id = o.user_id where o.id = ${row.id}`;
    const o = { ...(await orderView(tx, row, siteUrl)), id: row.id, ...meta };
    const issued: string[] = [];
    const existing = await tx<{ id: string; kind: DocumentKind; number: string; issued_on: string }[]>`
      select id::text, kind, number, to_char(issued_at at time zone 'utc', 'YYYY-MM-DD') as issued_on from order_documents where order_id = ${row.id}`;
    let invoice = existing.find((d) => d.kind === 'invoice') ?? null;
    if (!invoice) {
      await issue(tx, 'invoice', o, null, siteUrl);
      [invoice] = await tx<{ id: string; kind: DocumentKind; number: string; issued_on: string }[]>`
        select id::text, kind, number, to_char(issued_at at time zone 'utc', 'YYYY-MM-DD') as issued_on from order_documents where order_id = ${row.id} and kind = 'invoice'`;
      issued.push(invoice.number);
    }
    if (row.status === 'refunded' && !existing.some((d) => d.kind === 'credit_note')) {
      await issue(tx, 'credit_note', o, invoice, siteUrl);
      const [cn] = await tx<{ number: string }[]>`select number from order_documents where order_id = ${row.id} and kind = 'credit_note'`;
      issued.push(cn.number);
    }
    return issued;
  });
}
