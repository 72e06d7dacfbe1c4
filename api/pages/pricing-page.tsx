import { readOp } from './data.ts';
import { money } from './format.ts';
import type { Renderer } from './rendered.ts';

export const pricingPage: Renderer = async (deps) => {
  const out = await readOp(deps, 'list_products');
  return {
    meta: {
      title: 'Products and prices',
      description: `What you can buy on ${deps.site.name}: paid launches, featured placement, the billboard and more, at current prices.`,
      path: '/pricing',
    },
    body: (
      <>
        <h1>Products and prices</h1>
        <p>Free listings are always possible: they wait in the free queue and go live once our badge is on your homepage.</p>
        <p>
          Prices are excl. VAT where VAT applies. <a href="/me/order">Order for your listing</a> (sign-in needed).
        </p>
        <ul class="products">
          {out.items.map((p: any) => (
            <li>
              <h2>{p.name}</h2>
              <p class="price">
                {p.price ? money(p.price.amount_cents, p.price.currency) : ''}
                {p.min_amount_cents ? ` (at least ${money(p.min_amount_cents, p.price?.currency ?? 'USD')})` : ''}
                {p.price ? ' excl. VAT' : ''}
              </p>
              <p>{p.description ?? ''}</p>
            </li>
          ))}
        </ul>
      </>
    ),
  };
};
