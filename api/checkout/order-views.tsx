// What the checkout pages show: the order with its lines and totals, the billing form, the Pay
// button, and the test provider's payment page. The routes in pages.ts decide which one answers.
import type { Config } from '../../core/config.ts';
import type { SessionUser } from '../../core/auth/sessions.ts';
import type { OrderView } from '../../core/orders/store.ts';
import { csrfField, When } from '../site/common.tsx';
import { page } from '../site/frame.tsx';

export const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;
export const checkoutPath = (n: string) => `/checkout/${encodeURIComponent(n)}`;

export interface BillingForm {
  name: string;
  address: string;
  country: string;
  vat_number: string;
}

function TestBanner() {
  return (
    <p class="notice" id="test-mode" role="status">
      <strong>Test mode</strong>: this checkout uses the built-in test provider. No card is asked for and no money is taken.
    </p>
  );
}

function Lines({ o }: { o: OrderView }) {
  return (
    <>
      <table id="lines">
        <thead>
          <tr>
            <th>Item</th>
            <th>Price</th>
            <th>VAT</th>
            <th>Total</th>
            <th>Fulfilment</th>
          </tr>
        </thead>
        <tbody>
          {o.lines.map((l) => (
            <tr>
              <td>
                {l.name}
                {l.listing_id ? (
                  <>
                    {' '}
                    <small>(listing {l.listing_id})</small>
                  </>
                ) : null}
                {l.week ? (
                  <>
                    <br />
                    <small>week of {l.week}</small>
                  </>
                ) : null}
                {l.categories.length ? (
                  <>
                    <br />
                    <small>{l.categories.join(', ')}</small>
                  </>
                ) : null}
              </td>
              <td>{money(l.amount_cents, o.currency)}</td>
              <td>{money(l.vat_cents, o.currency)}</td>
              <td>{money(l.total_cents, o.currency)}</td>
              <td>
                {l.fulfilment.status}
                {l.fulfilment.summary ? (
                  <>
                    <br />
                    <small>{l.fulfilment.summary}</small>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th>Subtotal</th>
            <td id="subtotal">{money(o.subtotal_cents, o.currency)}</td>
          </tr>
          <tr>
            <th>VAT {o.vat.rate_percent}%</th>
            <td id="vat">{money(o.vat_cents, o.currency)}</td>
          </tr>
          <tr>
            <th>Total</th>
            <td id="total">
              <strong>{money(o.total_cents, o.currency)}</strong>
            </td>
          </tr>
        </tfoot>
      </table>
      <p id="vat-rule">{o.vat.note}</p>
    </>
  );
}

function OrderHead({ o }: { o: OrderView }) {
  return (
    <>
      <h1>Order {o.number}</h1>
      {o.test_mode && <TestBanner />}
      <p>
        Status: <strong id="order-status">{o.status}</strong>.{' '}
        {o.status === 'pending' && (
          <>
            Pay before <When d={new Date(o.expires_at)} />; after that the checkout expires.
          </>
        )}
      </p>
    </>
  );
}

function Settled({ o }: { o: OrderView }) {
  if (o.status === 'expired')
    return (
      <p class="error" role="alert">
        This checkout expired unpaid. Create a new order to buy these products.
      </p>
    );
  if (o.status === 'refunded') return <p class="notice">This order was refunded.</p>;
  return (
    <p class="notice" role="status" id="paid-notice">
      Paid {o.paid_at ? <When d={new Date(o.paid_at)} /> : null}. Thank you!{' '}
      {o.status === 'fulfilled' ? 'Everything is done.' : 'Fulfilment is under way: reload to follow it.'}
    </p>
  );
}

/** Links to the invoice and credit notes once issued (the buyer is signed in, so they open). */
function Documents({ o }: { o: OrderView }) {
  if (!o.invoice_url && !o.credit_note_urls.length) return null;
  const name = (url: string) => url.slice(url.lastIndexOf('/') + 1, -'.pdf'.length);
  return (
    <ul class="documents">
      {o.invoice_url ? (
        <li>
          <a href={new URL(o.invoice_url).pathname}>Invoice {name(o.invoice_url)} (PDF)</a>
        </li>
      ) : null}
      {o.credit_note_urls.map((u) => (
        <li>
          <a href={new URL(u).pathname}>Credit note {name(u)} (PDF)</a>
        </li>
      ))}
    </ul>
  );
}

/** The order page: settled orders show where they stand; a pending one takes billing details and payment. */
export function orderPage(
  config: Config,
  request: Request,
  user: SessionUser,
  o: OrderView,
  opts: { status?: number; form?: BillingForm; errors?: { field: string; message: string }[]; notice?: string; headers?: Record<string, string> } = {},
): Response {
  if (o.status !== 'pending') {
    return page({
      title: `Order ${o.number}`,
      status: o.status === 'expired' ? 410 : 200,
      signedInAs: user.email,
      body: (
        <>
          <OrderHead o={o} />
          <Settled o={o} />
          <Documents o={o} />
          <Lines o={o} />
        </>
      ),
    });
  }
  const csrf = csrfField(config, request);
  const f = opts.form ?? {
    name: o.billing.name ?? '',
    address: o.billing.address ?? '',
    country: o.billing.country ?? '',
    vat_number: o.billing.vat_number ?? '',
  };
  const canPay = Boolean(o.billing.country && o.billing.name);
  return page({
    title: `Checkout ${o.number}`,
    status: opts.status ?? 200,
    signedInAs: user.email,
    headers: { ...csrf.headers, ...opts.headers },
    body: (
      <>
        <OrderHead o={o} />
        {opts.notice && (
          <p class="notice" role="status">
            {opts.notice}
          </p>
        )}
        <Lines o={o} />
        <h2>Billing details</h2>
        {opts.errors?.length ? (
          <div class="error" role="alert">
            <ul>
              {opts.errors.map((e) => (
                <li id={`error-${e.field}`}>{e.message}</li>
              ))}
            </ul>
          </div>
        ) : null}
        <form method="post" action={`${checkoutPath(o.number)}/billing`}>
          {csrf.field}
          <label for="name">Name or company</label>
          <input type="text" id="name" name="name" required maxLength={200} value={f.name} />
          <label for="address">Address</label>
          <input type="text" id="address" name="address" required maxLength={1000} value={f.address} />
          <label for="country">Country (two letters, e.g. DE)</label>
          <input type="text" id="country" name="country" required maxLength={2} pattern="[A-Za-z]{2}" value={f.country} />
          <label for="vat_number">EU VAT number (businesses, optional)</label>
          <input type="text" id="vat_number" name="vat_number" maxLength={32} value={f.vat_number} />
          <button type="submit" id="save-billing">
            Save billing details and update VAT
          </button>
        </form>
        <h2>Payment</h2>
        {canPay ? (
          <>
            <form method="post" action={`${checkoutPath(o.number)}/pay`}>
              {csrf.field}
              <button type="submit" id="pay">
                Pay {money(o.total_cents, o.currency)}
                {o.test_mode ? ' (test mode)' : ''}
              </button>
            </form>
            <p>
              <small>
                {o.test_mode
                  ? "The test provider's page comes next."
                  : "You pay on Stripe's secure page (card, Apple Pay, Google Pay and more); we never see card details."}
              </small>
            </p>
          </>
        ) : (
          <p id="pay-needs-billing">Enter and save your billing details to pay.</p>
        )}
      </>
    ),
  });
}

/** The test provider's payment page: the same steps as a hosted payment page, clearly test mode. */
export function testPayPage(config: Config, request: Request, user: SessionUser, o: OrderView, session: string): Response {
  const csrf = csrfField(config, request);
  return page({
    title: 'Test payment',
    signedInAs: user.email,
    headers: csrf.headers,
    body: (
      <>
        <h1>Test payment</h1>
        <TestBanner />
        <p>
          Order <strong>{o.number}</strong>: <strong id="test-total">{money(o.total_cents, o.currency)}</strong> (VAT {money(o.vat_cents, o.currency)}{' '}
          included).
        </p>
        <form method="post" action={`${checkoutPath(o.number)}/test-pay`}>
          {csrf.field}
          <input type="hidden" name="session" value={session} />
          <button type="submit" id="test-pay">
            Pay {money(o.total_cents, o.currency)} (test mode)
          </button>
        </form>
        <p>
          <a href={checkoutPath(o.number)}>Cancel and go back to the order</a>
        </p>
      </>
    ),
  });
}
