// The checkout page at checkout_url (/checkout/{number}): the order, its lines and totals, the
// billing form (re-prices VAT), and the Pay button that goes to the provider. With the test
// provider, its payment page (/checkout/{number}/test-pay) lives here too and says "test mode".
// Signed-in owner only; every form carries the CSRF token; nothing here takes card details.
import { Elysia } from 'elysia';
import type { AppDeps } from '../deps.ts';
import { field, messagePage, notFoundPage, readCheckedForm, redirect, requireUser, sitePage, type SiteRequest } from '../site/common.tsx';
import { type BillingForm, checkoutPath, orderPage as renderOrder, testPayPage } from './order-views.tsx';
import type { SessionUser } from '../../core/auth/sessions.ts';
import { DomainError } from '../../core/errors/index.ts';
import { paymentRedirect, updateBilling } from '../../core/orders/checkout.ts';
import { recordPayment } from '../../core/orders/payments.ts';
import { orderRow, orderView, type OrderRow, type OrderView } from '../../core/orders/store.ts';
import { isKnownCountry, normaliseVatNumber } from '../../core/orders/vat.ts';
import { paymentProvider } from '../../core/payments/index.ts';
import { viesFromConfig } from '../../core/orders/vies.ts';

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
  const base = checkoutPath;

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

  const orderPage = (request: Request, user: SessionUser, o: OrderView, opts: Parameters<typeof renderOrder>[4] = {}) =>
    renderOrder(config, request, user, o, { ...opts, headers: cspFor() });

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
        if (e instanceof DomainError && (e.code === 'product_already_applied' || e.code === 'listing_exists')) {
          return messagePage({
            status: 409,
            title: 'This order would do nothing',
            message: `${e.message} Nothing was charged.`,
            signedInAs: own.user.email,
            links: [{ href: base(own.row.number), label: 'Back to your order' }],
          });
        }
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
        if (e instanceof DomainError && (e.code === 'product_already_applied' || e.code === 'listing_exists')) {
          return messagePage({
            status: 409,
            title: 'This order would do nothing',
            message: `${e.message} Nothing was charged.`,
            signedInAs: own.user.email,
            links: [{ href: base(own.row.number), label: 'Back to your order' }],
          });
        }
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
      return testPayPage(config, request, own.user, o, session);
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
      // As on the order page: no payment without billing details.
      if (!own.row.billing_country || !own.row.billing_name) return redirect(config, base(own.row.number));
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
