// /me/order: pick products for one of your listings (with a week where a product takes one), see
// the quote with VAT for your billing country, and go to the existing checkout page. The forms run
// list_products, quote_order and create_checkout, the API's own operations.
import { Elysia } from 'elysia';
import type { DomainError } from '../../../core/errors/index.ts';
import { CsrfField } from '../../pages/components.tsx';
import { money } from '../../pages/format.ts';
import { field, redirect } from '../common.tsx';
import { makerPage, Problem, statusOf } from './maker-frame.tsx';
import { attempt, makerGet, makerPost, type MakerDeps, type MakerRequest } from './forms.tsx';
import { runOp } from './run-op.ts';

/** The Monday of this UTC week and the days left in it (today counted). */
export function thisWeek(now = new Date()): { week: string; daysLeft: number } {
  const dow = (now.getUTCDay() + 6) % 7; // Monday 0
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - dow));
  return { week: monday.toISOString().slice(0, 10), daysLeft: 7 - dow };
}

interface Choice {
  listing: string;
  products: string[];
  weeks: Record<string, string>;
  amounts: Record<string, string>;
  country: string;
  vat: string;
}

const choiceOf = (form: FormData | URLSearchParams): Choice => {
  const get = (k: string) => {
    const v = form.get(k);
    return typeof v === 'string' ? v.trim() : '';
  };
  const products = form.getAll('product').filter((p): p is string => typeof p === 'string');
  const weeks: Record<string, string> = {};
  const amounts: Record<string, string> = {};
  for (const p of products) {
    weeks[p] = get(`week:${p}`);
    amounts[p] = get(`amount:${p}`);
  }
  return { listing: get('listing'), products, weeks, amounts, country: get('billing_country').toUpperCase(), vat: get('vat_number') };
};

/** The order body the API takes, from the form's choices. Wrong values are left for the operation to refuse. */
function bodyOf(c: Choice, catalogue: any[]) {
  const items = c.products.map((code) => {
    const p = catalogue.find((x) => x.code === code);
    const item: Record<string, unknown> = { product: code };
    if (p?.needs_listing && c.listing) item.listing_id = /^\d+$/.test(c.listing) ? Number(c.listing) : c.listing;
    if (c.weeks[code]) item.week = c.weeks[code];
    if (c.amounts[code]) item.amount_cents = /^\d+(\.\d{1,2})?$/.test(c.amounts[code]) ? Math.round(Number(c.amounts[code]) * 100) : c.amounts[code];
    return item;
  });
  return { items, ...(c.country ? { billing_country: c.country } : {}), ...(c.vat ? { vat_number: c.vat } : {}) };
}

export function orderPagePlugin(deps: MakerDeps) {
  const { config } = deps;
  const none = { parse: 'none' } as const;

  const orderPage = async (ctx: MakerRequest, c: Choice, opts: { quote?: any; err?: DomainError | null } = {}) => {
    const [products, mine] = await Promise.all([
      runOp(deps, ctx.user, 'list_products'),
      runOp(deps, ctx.user, 'list_my_listings', { query: { per_page: '100' } }),
    ]);
    // Products that take categories or free-form options are ordered through the API.
    const catalogue = products.items.filter((p: any) => !p.options && p.code !== 'extra_categories');
    const now = thisWeek();
    const q = opts.quote;
    return makerPage({
      config,
      siteName: deps.site.name,
      user: ctx.user,
      title: 'Order',
      path: '/me/order',
      status: opts.err ? statusOf(opts.err) : 200,
      headers: ctx.headers,
      body: (
        <>
          <h1>Order</h1>
          <p>Prices are excl. VAT; the quote adds the VAT of your billing country.</p>
          <Problem err={opts.err ?? null} />
          <form method="post" action="/me/order">
            <CsrfField token={ctx.csrf} />
            <label for="o-listing">For the listing</label>
            <select id="o-listing" name="listing">
              {mine.items.map((l: any) => (
                <option value={String(l.id)} selected={String(l.id) === c.listing}>
                  {l.name} ({l.status.replace('_', ' ')})
                </option>
              ))}
            </select>
            <fieldset>
              <legend>Products</legend>
              <ul class="products">
                {catalogue.map((p: any) => (
                  <li>
                    <label class="inline">
                      <input type="checkbox" name="product" value={p.code} checked={c.products.includes(p.code)} /> {p.name}:{' '}
                      <span class="price">
                        {money(p.price.amount_cents, p.price.currency)}
                        {p.min_amount_cents ? ` or more (at least ${money(p.min_amount_cents, p.price.currency)})` : ''}
                      </span>{' '}
                      excl. VAT
                    </label>
                    <p class="meta">{p.description}</p>
                    {p.weeks ? (
                      <>
                        <label for={`w-${p.code}`}>Week for {p.name}</label>
                        <select id={`w-${p.code}`} name={`week:${p.code}`}>
                          {p.needs_week ? null : <option value="">Now (this week)</option>}
                          {p.weeks.map((w: string) => (
                            <option value={w} selected={c.weeks[p.code] === w}>
                              Week of {w}
                            </option>
                          ))}
                        </select>
                        {p.needs_week ? null : (
                          <p class={now.daysLeft < 3 ? 'error' : 'meta'}>
                            Now: the listing goes live after payment and ranks in the week of {now.week}, which has {now.daysLeft}{' '}
                            {now.daysLeft === 1 ? 'day' : 'days'} left.
                            {now.daysLeft < 3 ? ' Less than 3 days to collect votes: consider next week.' : ''}
                          </p>
                        )}
                      </>
                    ) : null}
                    {p.min_amount_cents ? (
                      <>
                        <label for={`a-${p.code}`}>
                          Amount for {p.name} ({p.price.currency})
                        </label>
                        <input type="text" id={`a-${p.code}`} name={`amount:${p.code}`} inputMode="decimal" value={c.amounts[p.code] ?? ''} />
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </fieldset>
            <label for="o-country">Billing country (two letters, e.g. DE)</label>
            <input type="text" id="o-country" name="billing_country" maxLength={2} value={c.country} autocomplete="country" />
            <label for="o-vat">EU VAT number (businesses, optional)</label>
            <input type="text" id="o-vat" name="vat_number" maxLength={32} value={c.vat} />
            <div class="actions">
              <button type="submit" name="do" value="quote">
                See the quote
              </button>
              <button type="submit" name="do" value="checkout" class="secondary">
                Go to checkout
              </button>
            </div>
          </form>
          {q ? (
            <section aria-labelledby="quote-h">
              <h2 id="quote-h">Quote</h2>
              <table>
                <thead>
                  <tr>
                    <th scope="col">Product</th>
                    <th scope="col">Week</th>
                    <th scope="col">Price</th>
                    <th scope="col">VAT</th>
                    <th scope="col">Total</th>
                  </tr>
                </thead>
                <tbody>
                  {q.lines.map((x: any) => (
                    <tr>
                      <td>{x.name}</td>
                      <td>{x.week ?? ''}</td>
                      <td>{money(x.amount_cents, q.currency)}</td>
                      <td>{money(x.vat_cents, q.currency)}</td>
                      <td>{money(x.total_cents, q.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p>
                Subtotal {money(q.subtotal_cents, q.currency)} + VAT {q.vat.rate_percent} {money(q.vat_cents, q.currency)} ={' '}
                <strong class="quote-total">{money(q.total_cents, q.currency)}</strong>
              </p>
              <p class="meta">{q.vat.note}</p>
            </section>
          ) : null}
        </>
      ),
    });
  };

  return new Elysia({ name: 'maker-order' })
    .get(
      '/me/order',
      makerGet(deps, (ctx) => orderPage(ctx, choiceOf(new URL(ctx.request.url).searchParams))),
      none,
    )
    .post(
      '/me/order',
      makerPost(
        deps,
        () => '/me/order',
        async (ctx) => {
          const c = choiceOf(ctx.form);
          const products = await runOp(deps, ctx.user, 'list_products');
          const body = bodyOf(c, products.items);
          if (field(ctx.form, 'do') === 'checkout') {
            const r = await attempt(() => runOp(deps, ctx.user, 'create_checkout', { body }));
            if (r.err) return orderPage(ctx, c, { err: r.err });
            return redirect(config, new URL(r.ok.checkout_url).pathname);
          }
          const r = await attempt(() => runOp(deps, ctx.user, 'quote_order', { body }));
          if (r.err) return orderPage(ctx, c, { err: r.err });
          return orderPage(ctx, c, { quote: r.ok });
        },
      ),
      none,
    );
}
