// Invoices and credit notes: issued by the real worker when an order is paid or refunded, read
// back from the stored PDF with a text extractor, downloadable by the buyer only (API credential
// or site session), mailed with the PDF attached to a real SMTP server, and numbered without gaps
// when 50 orders are paid at once.
import { afterAll, describe, expect, test } from 'bun:test';
import { extractText, getDocumentProxy } from 'unpdf';
import { conforms } from '../conforms.ts';
import { signInWithClient, WebClient } from '../browser.ts';
import { startSmtpSink } from '../smtp-sink.ts';
import { ordersOperations } from '../../api/operations/orders.ts';
import { issueOrderDocuments } from '../../core/documents/issue.ts';
import { updateBilling } from '../../core/orders/checkout.ts';
import { recordPayment } from '../../core/orders/payments.ts';
import { ordersEnv } from './env.ts';
import { eventually, until } from '../eventually.ts';
import { runOpsCommand } from '../ops.ts';

const sink = await startSmtpSink();
afterAll(() => sink.stop());
const { env, call, listing } = ordersEnv({ socket: false, worker: true, env: { SMTP_URL: sink.url, SELLER_COUNTRY: 'DE' } });
const getOrder = ordersOperations.find((o) => o.name === 'get_order')!.output;

const ops = (...argv: string[]) => runOpsCommand(argv, { sql: env.app.sql, actor: 'test' });
const pay = async (number: string, who: 'owner' | 'other' = 'owner') => {
  const { body } = await call('GET', `/orders/${number}`, undefined, who);
  return recordPayment(env.app.sql, {
    provider: 'test',
    eventId: `evt_${number}`,
    type: 'test.payment_succeeded',
    orderNumber: number,
    amountCents: body.total_cents,
    currency: body.currency,
  });
};
async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}
const download = (url: string, headers: Record<string, string> = {}) => env.app.fetch(url, { headers });
const bearer = (who: 'owner' | 'other' | 'reader') => ({ authorization: `Bearer ${env.keys[who]}` });
let currency = '';
const euro = (cents: number) => `${(cents / 100).toFixed(2)} ${currency}`;

describe('invoices and credit notes', () => {
  test('a paid order gets an invoice with seller, buyer, lines, VAT and the reverse-charge note; a refund a credit note that refers to it', async () => {
    const set = await ops(
      'site',
      'set',
      '--seller-name',
      'Directory GmbH',
      '--seller-address',
      'Hauptstr. 1\\n10115 Berlin\\nGermany',
      '--seller-vat-id',
      'DE 136695976',
    );
    expect(set.code).toBe(0);
    const id = await listing({ status: 'live' });
    const created = await call('POST', '/orders/checkout', { items: [{ product: 'featured', listing_id: id }], billing_country: 'FR' }, 'owner', {
      'idempotency-key': crypto.randomUUID(),
    });
    expect(created.status).toBe(201);
    const number = created.body.number as string;
    await updateBilling(env.app.sql, 'DE', number, { name: 'Acme SAS', address: '1 rue de la Paix, 75002 Paris', country: 'FR', vatNumber: 'FR40303265045' });
    expect(await pay(number)).toBe('applied');

    // The worker issues the documents a moment after the payment.
    const order = await until('the invoice', async () => {
      const { body } = await call('GET', `/orders/${number}`);
      return typeof body.invoice_url === 'string' && body;
    });
    conforms(getOrder, order);
    currency = order.currency;
    expect(order.vat.rule).toBe('reverse_charge');
    expect(order.credit_note_urls).toEqual([]);

    const res = await download(order.invoice_url, bearer('owner'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await res.arrayBuffer());
    const text = await pdfText(bytes);
    const [doc] = await env.app.sql`select number, seq, year, net_cents::int, vat_cents::int, total_cents::int, pdf from order_documents where kind = 'invoice'
                                    and order_id = (select id from orders where number = ${number})`;
    expect(order.invoice_url.endsWith(`/orders/${number}/documents/${doc.number}.pdf`)).toBe(true);
    expect(doc.number).toBe(`INV-${doc.year}-${String(doc.seq).padStart(6, '0')}`);
    expect(Buffer.from(bytes).equals(Buffer.from(doc.pdf))).toBe(true);
    for (const expected of [
      'Invoice',
      doc.number,
      number,
      'Directory GmbH',
      'Hauptstr. 1',
      '10115 Berlin',
      'VAT ID: DE136695976',
      'Acme SAS',
      '1 rue de la Paix',
      'VAT ID: FR40303265045',
      `Total: ${euro(order.total_cents)}`,
      `Net: ${euro(order.subtotal_cents)}`,
      `VAT 0% on ${euro(order.subtotal_cents)}: ${euro(0)}`,
      'Reverse charge: VAT to be accounted for by the recipient',
      `All amounts in ${currency}`,
      'TEST MODE',
    ]) {
      expect(text).toContain(expected);
    }
    expect(doc.total_cents).toBe(order.total_cents);

    // Only the buyer: another account's key and an unknown document are the same 404; no credential is 401.
    expect((await download(order.invoice_url, bearer('other'))).status).toBe(404);
    expect((await download(order.invoice_url.replace(doc.number, 'INV-1999-000001'), bearer('owner'))).status).toBe(404);
    expect((await download(order.invoice_url)).status).toBe(401);
    expect((await download(order.invoice_url, { authorization: 'Bearer ldk_nope' })).status).toBe(401);
    expect((await download(order.invoice_url, bearer('reader'))).status).toBe(200);
    // The buyer signed in on the site reads it too; somebody else signed in does not.
    const owner = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(owner, env.app.sql, 'owner@example.com');
    const viaSession = await owner.get(new URL(order.invoice_url).pathname);
    expect(viaSession.status).toBe(200);
    expect(Buffer.from(await viaSession.arrayBuffer()).equals(Buffer.from(doc.pdf))).toBe(true);
    // The order page links to it.
    const orderPage = await (await owner.get(`/checkout/${number}`)).text();
    expect(orderPage).toContain(`href="/orders/${number}/documents/${doc.number}.pdf"`);
    const other = new WebClient(env.app.url, env.app.fetch);
    await signInWithClient(other, env.app.sql, 'other@example.com');
    expect((await other.get(new URL(order.invoice_url).pathname)).status).toBe(404);

    // The buyer's mail carries the stored PDF.
    const mail = await sink.waitFor((m) => m.subject.includes(doc.number), 60_000);
    expect(mail.to).toEqual(['owner@example.com']);
    expect(attachment(mail.raw, `${doc.number}.pdf`).equals(Buffer.from(doc.pdf))).toBe(true);

    // Refund: a credit note referring to the invoice, negative amounts, mailed as well.
    expect((await ops('order', 'refund', number)).code).toBe(0);
    const refunded = await until('the credit note', async () => {
      const { body } = await call('GET', `/orders/${number}`);
      return body.credit_note_urls?.length === 1 && body;
    });
    expect(refunded.invoice_url).toBe(order.invoice_url);
    const cnRes = await download(refunded.credit_note_urls[0], bearer('owner'));
    expect(cnRes.status).toBe(200);
    const cnText = await pdfText(new Uint8Array(await cnRes.arrayBuffer()));
    const [cn] = await env.app
      .sql`select number, total_cents::int, refers_to::text, (select id::text from order_documents where number = ${doc.number}) as invoice_id
                                   from order_documents where kind = 'credit_note' and order_id = (select id from orders where number = ${number})`;
    expect(cn.refers_to).toBe(cn.invoice_id);
    expect(cn.total_cents).toBe(-order.total_cents);
    for (const expected of ['Credit note', cn.number, `Corrects invoice ${doc.number}`, `Total: -${euro(order.total_cents)}`, 'Acme SAS']) {
      expect(cnText).toContain(expected);
    }
    const cnMail = await sink.waitFor((m) => m.subject.includes(cn.number), 60_000);
    expect(attachment(cnMail.raw, `${cn.number}.pdf`).subarray(0, 5).toString()).toBe('%PDF-');

    // Issuing again changes nothing: the stored bytes stay as they were.
    expect(
      await issueOrderDocuments(env.app.sql, Number((await env.app.sql`select id from orders where number = ${number}`)[0].id), env.app.config.siteUrl),
    ).toEqual([]);
    const [again] = await env.app.sql`select pdf from order_documents where number = ${doc.number}`;
    expect(Buffer.from(again.pdf).equals(Buffer.from(doc.pdf))).toBe(true);
  }, 120_000);

  test('50 orders paid at once get 50 consecutive invoice numbers, none twice and none skipped', async () => {
    const id = await listing({ status: 'live', owner: 'other' });
    const numbers: string[] = [];
    for (let i = 0; i < 50; i++) {
      const { body, status } = await call('POST', '/orders/checkout', { items: [{ product: 'featured', listing_id: id }], billing_country: 'US' }, 'other', {
        'idempotency-key': crypto.randomUUID(),
      });
      expect(status).toBe(201);
      numbers.push(body.number);
    }
    const [{ before }] = await env.app.sql`select coalesce(max(seq), 0)::int as before from order_documents where kind = 'invoice'`;
    const outcomes = await Promise.all(numbers.map((n) => pay(n, 'other')));
    expect(outcomes.every((o) => o === 'applied')).toBe(true);
    // The worker issues them; issuing from here at the same time as well races it for each order.
    const ids = (await env.app.sql`select id::int from orders where number = any(${numbers})`).map((r) => r.id as number);
    await Promise.all(ids.map((oid) => issueOrderDocuments(env.app.sql, oid, env.app.config.siteUrl)));
    const seqs = await eventually(
      async () =>
        (
          await env.app
            .sql`select d.seq from order_documents d join orders o on o.id = d.order_id where o.number = any(${numbers}) and d.kind = 'invoice' order by d.seq`
        ).map((r) => r.seq as number),
      (rows) => rows.length === 50,
      { tries: 300, everyMs: 200 },
    );
    expect(seqs).toEqual(Array.from({ length: 50 }, (_, i) => before + 1 + i));
    const [{ last }] = await env.app.sql`select last_number as last from document_counters where kind = 'invoice'`;
    expect(last).toBe(before + 50);
  }, 120_000);
});

/** The decoded bytes of a base64 MIME attachment with this file name. */
function attachment(raw: string, filename: string): Buffer {
  const at = raw.indexOf(`filename=${filename}`) >= 0 ? raw.indexOf(`filename=${filename}`) : raw.indexOf(`filename="${filename}"`);
  expect(at).toBeGreaterThan(0);
  const body = raw.slice(raw.indexOf('\r\n\r\n', at) + 4);
  const end = body.indexOf('\r\n--');
  return Buffer.from(body.slice(0, end).replace(/\s+/g, ''), 'base64');
}
