// The PDF of an invoice or a credit note, laid out with pdfkit. Rendered once, when the document is
// issued; the bytes are stored and served as they are.
import PDFDocument from 'pdfkit';
import { REVERSE_CHARGE_NOTE } from '../orders/vat.ts';

export interface DocumentLine {
  name: string;
  detail: string | null;
  net_cents: number;
  vat_cents: number;
  total_cents: number;
}

export interface DocumentContent {
  kind: 'invoice' | 'credit_note';
  number: string;
  issued_on: string;
  /** The invoice a credit note corrects. */
  refers_to: { number: string; issued_on: string } | null;
  order_number: string;
  paid_on: string | null;
  seller: { name: string; address: string; vat_id: string | null };
  buyer: { name: string | null; address: string | null; country: string | null; vat_id: string | null; email: string };
  currency: string;
  vat_rule: string;
  rate_basis_points: number;
  /** Amounts as they count: negative on a credit note. */
  lines: DocumentLine[];
  net_cents: number;
  vat_cents: number;
  total_cents: number;
  test_mode: boolean;
}

export const money = (cents: number, currency: string) => `${cents < 0 ? '-' : ''}${(Math.abs(cents) / 100).toFixed(2)} ${currency}`;
const percent = (bp: number) => `${(bp / 100).toFixed(2).replace(/\.?0+$/, '')}%`;

/** VAT totals per rate, as invoices in the EU must show them. */
export function vatByRate(c: DocumentContent): { rate_basis_points: number; net_cents: number; vat_cents: number }[] {
  // Every line of an order carries the order's one rate; grouping keeps the layout right if that changes.
  const rates = new Map<number, { net: number; vat: number }>();
  for (const l of c.lines) {
    const r = rates.get(c.rate_basis_points) ?? { net: 0, vat: 0 };
    r.net += l.net_cents;
    r.vat += l.vat_cents;
    rates.set(c.rate_basis_points, r);
  }
  return [...rates].map(([rate_basis_points, r]) => ({ rate_basis_points, net_cents: r.net, vat_cents: r.vat }));
}

/** Renders the document; resolves with the PDF bytes. */
export function renderDocumentPdf(c: DocumentContent): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `${c.kind === 'invoice' ? 'Invoice' : 'Credit note'} ${c.number}`, Author: c.seller.name },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (b: Buffer) => chunks.push(b));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const title = c.kind === 'invoice' ? 'Invoice' : 'Credit note';
  doc.font('Helvetica-Bold').fontSize(20).text(title);
  doc.moveDown(0.3).font('Helvetica').fontSize(10);
  doc.text(`${title} number: ${c.number}`);
  doc.text(`Date of issue: ${c.issued_on}`);
  if (c.refers_to) doc.text(`Corrects invoice ${c.refers_to.number} of ${c.refers_to.issued_on}`);
  doc.text(`Order: ${c.order_number}`);
  if (c.paid_on) doc.text(`Date of supply and payment: ${c.paid_on}`);
  if (c.test_mode) doc.font('Helvetica-Bold').text('TEST MODE: no payment was taken; this document is not valid for tax purposes.').font('Helvetica');

  const top = doc.moveDown().y;
  doc.font('Helvetica-Bold').text('Seller', 50, top).font('Helvetica');
  doc.text(c.seller.name, 50);
  doc.text(c.seller.address, 50, undefined, { width: 230 });
  if (c.seller.vat_id) doc.text(`VAT ID: ${c.seller.vat_id}`, 50);
  const leftEnd = doc.y;
  doc.font('Helvetica-Bold').text('Bill to', 310, top).font('Helvetica');
  doc.text(c.buyer.name ?? c.buyer.email, 310);
  if (c.buyer.address) doc.text(c.buyer.address, 310, undefined, { width: 230 });
  if (c.buyer.country) doc.text(`Country: ${c.buyer.country}`, 310);
  if (c.buyer.vat_id) doc.text(`VAT ID: ${c.buyer.vat_id}`, 310);
  doc.y = Math.max(leftEnd, doc.y);
  doc.moveDown();

  const cols = { name: 50, net: 300, vat: 380, total: 460 };
  const row = (cells: [string, string, string, string], bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(cells[0], cols.name, y, { width: 240 });
    const end = doc.y;
    doc.text(cells[1], cols.net, y, { width: 75, align: 'right' });
    doc.text(cells[2], cols.vat, y, { width: 75, align: 'right' });
    doc.text(cells[3], cols.total, y, { width: 85, align: 'right' });
    doc.y = Math.max(end, doc.y) + 4;
  };
  row(['Item', 'Net', `VAT ${percent(c.rate_basis_points)}`, 'Total'], true);
  for (const l of c.lines) {
    row([l.detail ? `${l.name} (${l.detail})` : l.name, money(l.net_cents, c.currency), money(l.vat_cents, c.currency), money(l.total_cents, c.currency)]);
  }
  doc.moveDown(0.5);
  doc.x = 50;
  doc.font('Helvetica').text(`Net: ${money(c.net_cents, c.currency)}`, 50, undefined, { align: 'right' });
  for (const r of vatByRate(c)) {
    doc.text(`VAT ${percent(r.rate_basis_points)} on ${money(r.net_cents, c.currency)}: ${money(r.vat_cents, c.currency)}`, 50, undefined, { align: 'right' });
  }
  doc.font('Helvetica-Bold').text(`Total: ${money(c.total_cents, c.currency)}`, 50, undefined, { align: 'right' });
  doc.font('Helvetica').moveDown();
  doc.text(`All amounts in ${c.currency}.`, 50);
  if (c.vat_rule === 'reverse_charge') doc.text(REVERSE_CHARGE_NOTE, 50);
  if (c.vat_rule === 'outside_eu') doc.text('Not subject to VAT in the EU: the buyer is outside the EU (place of supply rules for electronic services).', 50);
  if (c.kind === 'credit_note') doc.text('The amounts above are refunded to the original means of payment.', 50);
  doc.end();
  return done;
}
