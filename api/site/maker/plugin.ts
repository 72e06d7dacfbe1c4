import { Elysia } from 'elysia';
import type { AccountSection } from '../account.tsx';
import type { MakerDeps } from './forms.tsx';
import { draftPagesPlugin } from './draft-pages.tsx';
import { listingPagesPlugin } from './listing-pages.tsx';
import { claimPagesPlugin } from './claim-pages.tsx';
import { orderPagePlugin } from './order-page.tsx';
import { interviewPagePlugin } from './interview-page.tsx';

/** The account page's link to the maker pages. */
export const MAKER_SECTION: AccountSection = { href: '/me/listings', label: 'Your listings', about: 'Submit products, edit drafts and listings, launch' };

/** The maker pages: submit, drafts, the dashboard of listings, publishing and orders. */
export function makerPlugin(deps: MakerDeps) {
  return new Elysia({ name: 'maker' })
    .use(draftPagesPlugin(deps))
    .use(listingPagesPlugin(deps))
    .use(claimPagesPlugin(deps))
    .use(orderPagePlugin(deps))
    .use(interviewPagePlugin(deps));
}
