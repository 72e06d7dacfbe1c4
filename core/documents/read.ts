// Reading issued documents back: their addresses for get_order, and the stored PDF for its buyer.
import type { Sql } from '../../sql/db.ts';

/** Where a document is downloaded: on the site's origin, so a site session and an API credential both work. */
export const documentUrl = (siteUrl: string, orderNumber: string, documentNumber: string) => `${siteUrl}/orders/${orderNumber}/documents/${documentNumber}.pdf`;

export interface OrderDocumentLinks {
  invoice_url: string | null;
  credit_note_urls: string[];
}

/** The documents of each order (by order id), oldest first. */
export async function documentLinks(sql: Sql, orders: { id: string; number: string }[], siteUrl: string): Promise<Map<string, OrderDocumentLinks>> {
  const out = new Map<string, OrderDocumentLinks>(orders.map((o) => [o.id, { invoice_url: null, credit_note_urls: [] }]));
  if (!orders.length) return out;
  const numbers = new Map(orders.map((o) => [o.id, o.number]));
  const rows = await sql<{ order_id: string; kind: string; number: string }[]>`
    select order_id::text, kind, number from order_documents where order_id = any(${orders.map((o) => o.id)}::bigint[]) order by issued_at, id`;
  for (const r of rows) {
    const links = out.get(r.order_id)!;
    const url = documentUrl(siteUrl, numbers.get(r.order_id)!, r.number);
    if (r.kind === 'invoice') links.invoice_url = url;
    else links.credit_note_urls.push(url);
  }
  return out;
}

/** The stored PDF of one of the buyer's documents; null for an unknown one and for anybody else's alike. */
export async function buyerDocument(
  sql: Sql,
  who: { userId: string; siteId: number },
  orderNumber: string,
  documentNumber: string,
): Promise<{ number: string; pdf: Buffer } | null> {
  const [row] = await sql<{ number: string; pdf: Buffer }[]>`
    select d.number, d.pdf from order_documents d join orders o on o.id = d.order_id
    where o.number = ${orderNumber} and d.number = ${documentNumber} and o.user_id = ${who.userId} and o.site_id = ${who.siteId}`;
  return row ?? null;
}
