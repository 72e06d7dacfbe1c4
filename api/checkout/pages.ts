// The checkout page at checkout_url (/checkout/{number}): the order, its lines and totals, the
// billing form (re-prices VAT), and the Pay button that goes to the provider. With the test
// provider, its payment page (/checkout/{number}/test-pay) lives here too and says "test mode".
// Signed-in owner only; every form carries the CSRF token; nothing here takes card details.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { html, page, type Html } from '../site/html.ts';
import { csrfField, field, messagePage, notFoundPage, readCheckedForm, redirect, requireUser, sitePage, when, type SiteRequest } from '../site/common.ts';
import type { SessionUser } from '../../core/auth/sessions.ts';
import { DomainError } from '../../core/errors/index.ts';
import { paymentRedirect, updateBilling } from '../../core/orders/checkout.ts';
import { recordPayment } from '../../core/orders/payments.ts';
import { orderRow, orderView, type OrderRow, type OrderView } from '../../core/orders/store.ts';
import { isKnownCountry, normaliseVatNumber } from '../../core/orders/vat.ts';
import { paymentProvider } from '../../core/payments/index.ts';
import { viesFromConfig } from '../../core/orders/vies.ts';

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;
const TEST_BANNER = html`<p class="notice" id="test-mode" role="status"><strong>Test mode</strong>: this checkout uses the built-in test provider. No card is asked for and no money is taken.</p>`;

interface BillingForm {
  name: string;
  address: string;
  country: string;
  vat_number: string;
}

function validateBilling(f: BillingForm): { field: string; message: string }[] {
  const errors: { field: string; message: string }[] = [];
  if (!f.name.trim() || f.name.length > 200) errors.push({ field: 'name', message: 'Enter the name for the invoice (up to 200 characters).' });
  if (!f.address.trim() || f.address.length > 1000) errors.push({ field: 'address', message: 'Enter the billing address (up to 1000 characters).' });
  if (!/^[A-Za-z]{2}$/.test(f.country) || !isKnownCountry(f.country.toUpperCase()))
    errors.push({ field: 'country', message: 'Enter the two-letter country code (e.g. DE, FR, US).' });
  if (f.vat_number.length > 32) errors.push({ field: 'vat_number', message: 'A VAT number has at most 32 characters.' });
  return errors;
}

export function checkoutPlugin(deps: AppDeps) {
  // Routes are added one by one below; the instance is this area's plugin.
  const app = new Elysia({ name: 'checkout' });
  const { config, sql } = deps;
  const provider = paymentProvider(config);
  const base = (n: string) => `/checkout/${encodeURIComponent(n)}`;

  /** The signed-in owner's order, or the page to answer with (sign-in redirect, or the same 404 for others' orders). */
  async function ownOrder(request: Request, number: string, returnTo?: string): Promise<{ user: SessionUser; row: OrderRow } | { response: Response }> {
    const auth = await requireUser(deps, request, returnTo);
    if ('response' in auth) return auth;
    const row = /^[A-Za-z0-9-]{1,32}$/.test(number) ? await orderRow(sql, { number }) : null;
    if (!row || row.user_id !== auth.user.userId) return { response: notFoundPage(auth.user.email) };
    return { user: auth.user, row };
  }

  // Pay may redirect to the provider's own page: the form-action rule must allow its origin.
  const cspFor = () => {
    const extra = config.orders.stripe
      ? ' https://checkout.stripe.com' + (config.orders.stripe.apiUrl ? ` ${new URL(config.orders.stripe.apiUrl).origin}` : '')
      : '';
    return {
      'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'${extra}; frame-ancestors 'none'; base-uri 'none'`,
    };
  };

  function orderPage(
    request: Request,
    user: SessionUser,
    o: OrderView,
    opts: { status?: number; form?: BillingForm; errors?: { field: string; message: string }[]; notice?: string } = {},
  ): Response {
    const csrf = csrfField(config, request);
    const test = o.test_mode ? TEST_BANNER : '';
    const rows = o.lines.map(
      (
        l,
      ) => html`<tr><td>${l.name}${l.listing_id ? html` <small>(listing ${l.listing_id})</small>` : ''}${l.week ? html`<br><small>week of ${l.week}</small>` : ''}${l.categories.length ? html`<br><small>${l.categories.join(', ')}</small>` : ''}</td>
<td>${money(l.amount_cents, o.currency)}</td><td>${money(l.vat_cents, o.currency)}</td><td>${money(l.total_cents, o.currency)}</td>
<td>${l.fulfilment.status}${l.fulfilment.summary ? html`<br><small>${l.fulfilment.summary}</small>` : ''}</td></tr>`,
    );
    const table = html`<table id="lines"><thead><tr><th>Item</th><th>Price</th><th>VAT</th><th>Total</th><th>Fulfilment</th></tr></thead><tbody>${rows}</tbody>
<tfoot><tr><th>Subtotal</th><td id="subtotal">${money(o.subtotal_cents, o.currency)}</td></tr>
<tr><th>VAT ${o.vat.rate_percent}%</th><td id="vat">${money(o.vat_cents, o.currency)}</td></tr>
<tr><th>Total</th><td id="total"><strong>${money(o.total_cents, o.currency)}</strong></td></tr></tfoot></table>
<p id="vat-rule">${o.vat.note}</p>`;
    const head = html`<h1>Order ${o.number}</h1>${test}<p>Status: <strong id="order-status">${o.status}</strong>. ${o.status === 'pending' ? html`Pay before ${when(new Date(o.expires_at))}; after that the checkout expires.` : ''}</p>`;
    if (o.status !== 'pending') {
      const notice =
        o.status === 'expired'
          ? html`<p class="error" role="alert">This checkout expired unpaid. Create a new order to buy these products.</p>`
          : o.status === 'refunded'
            ? html`<p class="notice">This order was refunded.</p>`
            : html`<p class="notice" role="status" id="paid-notice">Paid ${o.paid_at ? when(new Date(o.paid_at)) : ''}. Thank you! ${o.status === 'fulfilled' ? 'Everything is done.' : 'Fulfilment is under way: reload to follow it.'}</p>`;
      return page({ title: `Order ${o.number}`, status: o.status === 'expired' ? 410 : 200, signedInAs: user.email, body: html`${head}${notice}${table}` });
    }
    const f = opts.form ?? {
      name: o.billing.name ?? '',
      address: o.billing.address ?? '',
      country: o.billing.country ?? '',
      vat_number: o.billing.vat_number ?? '',
    };
    const errors = opts.errors?.length
      ? html`<div class="error" role="alert"><ul>${opts.errors.map((e) => html`<li id="error-${e.field}">${e.message}</li>`)}</ul></div>`
      : '';
    const notice = opts.notice ? html`<p class="notice" role="status">${opts.notice}</p>` : '';
    const canPay = Boolean(o.billing.country && o.billing.name);
    const pay: Html = canPay
      ? html`<form method="post" action="${base(o.number)}/pay">${csrf.field}<button type="submit" id="pay">Pay ${money(o.total_cents, o.currency)}${o.test_mode ? ' (test mode)' : ''}</button></form>
<p><small>${o.test_mode ? "The test provider's page comes next." : "You pay on Stripe's secure page (card, Apple Pay, Google Pay and more); we never see card details."}</small></p>`
      : html`<p id="pay-needs-billing">Enter and save your billing details to pay.</p>`;
    return page({
      title: `Checkout ${o.number}`,
      status: opts.status ?? 200,
      signedInAs: user.email,
      headers: { ...csrf.headers, ...cspFor() },
      body: html`${head}${notice}${table}
<h2>Billing details</h2>${errors}
<form method="post" action="${base(o.number)}/billing">${csrf.field}
<label for="name">Name or company</label><input type="text" id="name" name="name" required maxlength="200" value="${f.name}">
<label for="address">Address</label><input type="text" id="address" name="address" required maxlength="1000" value="${f.address}">
<label for="country">Country (two letters, e.g. DE)</label><input type="text" id="country" name="country" required maxlength="2" pattern="[A-Za-z]{2}" value="${f.country}">
<label for="vat_number">EU VAT number (businesses, optional)</label><input type="text" id="vat_number" name="vat_number" maxlength="32" value="${f.vat_number}">
<button type="submit" id="save-billing">Save billing details and update VAT</button>
</form>
<h2>Payment</h2>${pay}`,
    });
  }

  app.get(
    '/checkout/:number',
    sitePage(deps, async ({ request, params }: SiteRequest) => {
      const own = await ownOrder(request, params.number);
      if ('response' in own) return own.response;
      const paid = new URL(request.url).searchParams.get('paid') === '1';
      const view = await orderView(sql, own.row, config.siteUrl);
      return orderPage(request, own.user, view, {
        notice: paid && view.status === 'pending' ? 'Payment received by the provider; confirming it takes a moment. Reload this page.' : undefined,
      });
    }),
    { parse: 'none' } as never,
  );

  app.post(
    '/checkout/:number/billing',
    sitePage(deps, async ({ request, params }: SiteRequest) => {
      const checked = await readCheckedForm(config, request);
      if ('response' in checked) return checked.response;
      const own = await ownOrder(request, params.number, base(params.number));
      if ('response' in own) return own.response;
      const form: BillingForm = {
        name: field(checked.form, 'name').trim(),
        address: field(checked.form, 'address').trim(),
        country: field(checked.form, 'country').trim(),
        vat_number: field(checked.form, 'vat_number').trim(),
      };
      const errors = validateBilling(form);
      if (errors.length) return orderPage(request, own.user, await orderView(sql, own.row, config.siteUrl), { status: 400, form, errors });
      try {
        await updateBilling(
          sql,
          config.orders.sellerCountry,
          own.row.number,
          {
            name: form.name,
            address: form.address,
            country: form.country.toUpperCase(),
            vatNumber: form.vat_number ? normaliseVatNumber(form.vat_number) : null,
          },
          viesFromConfig(config),
        );
      } catch (e) {
        if (e instanceof DomainError && e.code === 'order_not_payable') return redirect(config, base(own.row.number));
        throw e;
      }
      return redirect(config, `${base(own.row.number)}?billing=saved`);
    }),
    { parse: 'none' } as never,
  );

  app.post(
    '/checkout/:number/pay',
    sitePage(deps, async ({ request, params }: SiteRequest) => {
      const checked = await readCheckedForm(config, request);
      if ('response' in checked) return checked.response;
      const own = await ownOrder(request, params.number, base(params.number));
      if ('response' in own) return own.response;
      if (!own.row.billing_country || !own.row.billing_name) return redirect(config, base(own.row.number));
      try {
        const url = await paymentRedirect(sql, { provider, siteUrl: config.siteUrl, email: own.user.email }, own.row.number);
        return new Response(null, { status: 303, headers: { location: url, 'cache-control': 'no-store' } });
      } catch (e) {
        if (e instanceof DomainError && e.code === 'order_not_payable') return redirect(config, base(own.row.number));
        if (e instanceof DomainError && e.code === 'payment_provider_unavailable') {
          return messagePage({
            status: 503,
            title: 'Payment provider unavailable',
            message: 'The payment provider could not be reached. Nothing was charged; please try again in a minute.',
            signedInAs: own.user.email,
            links: [{ href: base(own.row.number), label: 'Back to your order' }],
          });
        }
        throw e;
      }
    }),
    { parse: 'none' } as never,
  );

  // The test provider's payment page: same look as a hosted payment page, clearly test mode.
  app.get(
    '/checkout/:number/test-pay',
    sitePage(deps, async ({ request, params }: SiteRequest) => {
      const own = await ownOrder(request, params.number);
      if ('response' in own) return own.response;
      if (own.row.provider !== 'test') return notFoundPage(own.user.email);
      const o = await orderView(sql, own.row, config.siteUrl);
      if (o.status !== 'pending') return redirect(config, base(o.number));
      const session = new URL(request.url).searchParams.get('session') ?? '';
      const csrf = csrfField(config, request);
      return page({
        title: 'Test payment',
        signedInAs: own.user.email,
        headers: csrf.headers,
        body: html`<h1>Test payment</h1>${TEST_BANNER}
<p>Order <strong>${o.number}</strong>: <strong id="test-total">${money(o.total_cents, o.currency)}</strong> (VAT ${money(o.vat_cents, o.currency)} included).</p>
<form method="post" action="${base(o.number)}/test-pay">${csrf.field}<input type="hidden" name="session" value="${session}">
<button type="submit" id="test-pay">Pay ${money(o.total_cents, o.currency)} (test mode)</button></form>
<p><a href="${base(o.number)}">Cancel and go back to the order</a></p>`,
      });
    }),
    { parse: 'none' } as never,
  );

  app.post(
    '/checkout/:number/test-pay',
    sitePage(deps, async ({ request, params }: SiteRequest) => {
      const checked = await readCheckedForm(config, request);
      if ('response' in checked) return checked.response;
      const own = await ownOrder(request, params.number, base(params.number));
      if ('response' in own) return own.response;
      if (own.row.provider !== 'test') return notFoundPage(own.user.email);
      const session = field(checked.form, 'session') || own.row.provider_session_id || 'none';
      // The same event path as Stripe's webhook: one event per session, so a double click pays once.
      await recordPayment(sql, {
        provider: 'test',
        eventId: `test_evt_${session}`.slice(0, 255),
        type: 'test.payment_succeeded',
        orderNumber: own.row.number,
        amountCents: own.row.provider_session_total_cents ?? own.row.total_cents,
        currency: own.row.currency,
        paymentId: `test_pay_${session}`.slice(0, 255),
      });
      return redirect(config, `${base(own.row.number)}?paid=1`);
    }),
    { parse: 'none' } as never,
  );
  return app;
}
