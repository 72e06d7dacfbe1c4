/**
 * The product's one human-facing name: the site row's name (pages, badges, feeds and mail say it
 * from there), the OpenAPI title, the docs page, the crawler's and the OAuth fetcher's user agents,
 * and mail's sender name. It sits in sql/, the lowest layer, so the site row can use it and every
 * layer above can import it. Technical identifiers (the npm package, the MCP server name, DNS and
 * meta labels of claims, Kubernetes labels) keep their `listing-directory` spelling: renaming them
 * would break clients and verifications already published.
 */
export const PRODUCT_NAME = 'Launchpad Directory';

/** The product name as a User-Agent product token (no spaces): LaunchpadDirectory. */
export const PRODUCT_TOKEN = PRODUCT_NAME.replace(/[^A-Za-z0-9]/g, '');
