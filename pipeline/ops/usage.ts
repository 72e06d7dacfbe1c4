/** `npm run ops -- help`; also printed (on stderr) after a usage error. */
export const USAGE = `Operator commands: npm run ops -- <command>

  user create --email E [--name N]
      Make the account for E (or find it) and optionally set its name.

  users suspend <email> --reason R
      Suspend the account: its sessions end, its API keys and OAuth grants are revoked, and its
      votes, reviews, follows and flags stop counting (all kept). users restore <email> lifts it.

  api-key create --email E --scopes S [--name N]
      Make an API key for E (the account is made if missing). S is a comma-separated list of
      account:read, listings:write, orders:write. The secret is printed once, alone on the last line.

  api-key list --email E
      The keys of E: id, name, prefix, scopes, created, last used, revoked.

  api-key revoke <id>
      Revoke the key with that id (see api-key list).

  outbox [--limit N] [--to E]
      Recent mail, newest first (default 20, at most 500), with the text body: sign-in links
      are readable here when SMTP_URL is not set.

  price list
      Each product's current price (and any that starts later).

  price set --product CODE --amount CENTS [--min CENTS] [--currency USD] [--from YYYY-MM-DD]
      A new price from a date (default now); list_products shows it once it is valid. Prices are
      never edited in place. Example: price set --product launch --amount 4900 --from 2027-01-04

  site show
  site set [--free-queue-min-weeks N] [--free-queue-max-weeks N] [--launch-slots-per-week N]
           [--review-hide-flags N] [--review-flagger-min-age-days D]
           [--seller-name TEXT] [--seller-address TEXT] [--seller-vat-id ID]   (the seller on invoices; \\n in the address is a line break)
      The free launch queue's window (weeks out) and the launch slots per week; a review is hidden
      after flags from N distinct accounts (default 3) each older than D days (default 7).
      Example: site set --free-queue-min-weeks 4 --free-queue-max-weeks 6

  audit [--limit N] [--target T]
      Operator changes, newest first, with who, when, before and after (T e.g. product:launch).

  claims disputes [--limit N]
      Ownership changes (claims) their previous owners disputed through the mailed link, newest first.

  moderation [--site KEY] [--limit N]
      Owners' listing edits, newest first (default 20, at most 500): who, with which credential,
      and each changed part before -> after. --site limits it to one site of the network.

  moderation --new [--site KEY] [--limit N]
      Newly submitted listings (drafts turned into listings), newest first.

  reviews flagged
      Reviews with open flags, most flagged first, with who flagged each. One flag never hides a
      review; flags from enough established accounts do (see site set) until the team decides.

  reviews keep <id> --reason R
  reviews remove <id> --reason R
      Decide on a flagged review: keep shows it again (its flags stay on record, no longer
      counting), remove hides it (kept, so keep undoes it). The reviewer and the flaggers are mailed R.

  votes suspicious --week W
      Clusters of counted votes on week W's launches (this, last or YYYY-MM-DD): one network in
      one burst, young accounts created together, or people who never opened the listing voting
      in a burst; each with its vote ids.

  votes discount --ids 1,2,... --reason R
  votes restore --ids 1,2,...
      Discount votes (kept, shown with R in the week's public integrity report) or count them
      again; rankings, boards, trending and awards are recomputed.

  listings hide <slug> --reason R
  listings restore <slug>
      Take a listing off every public surface (its owner sees R in get_my_listing), or put it back.

  order refund <number>
      Refund an order: it becomes refunded and each line is reversed where possible (featured
      ends, categories, AI review and billboard contribution removed, open tasks cancelled, a
      launch not yet live taken back); what cannot be undone is printed per line. A Stripe
      payment is refunded at Stripe first (needs STRIPE_SECRET_KEY); a refund made in Stripe's
      dashboard does the same through its charge.refunded webhook.

  tasks [--all]
  tasks done <id> [--note TEXT]
      The site team's open tasks from orders (done_for_you, with the order's notes); --all
      includes closed ones. tasks done marks one done.

  recrawl (--all | --status S | --category SLUG | --ids 1,2 | --slugs a,b | --crawled-before DATE)...
          [--concurrency N] [--detach] [--interval S]
      Re-crawl the selected listings of this site (selectors combine with and; --all is every live
      listing) as one batch of worker jobs, one per listing (a listing already waiting in a batch is
      not queued again), one host at a time (robots.txt and Crawl-delay honoured). Values still in
      the AI's hands are refreshed with new quotes; values the owner edited, locked or wrote become
      proposed changes the owner sees in get_my_listing; facts gone from the site are flagged, not
      deleted. Shows a progress bar (plain lines every S seconds, default 10, when stdout is not a
      terminal) and runs the jobs here too, N at a time (default 4); --detach only queues them.

  recrawl status <batch> [--once] [--interval S]
      Re-attach to a batch until it is through (--once: one progress line).

  recrawl cancel <batch>
      Listings of the batch still waiting are not re-crawled (their jobs are removed).

  dr import FILE.csv
      Domain Ratings from a CSV with the header domain,rating,measured_on (e.g. example.com,42,2026-11-01),
      recorded as imported for the companies with that domain. Any bad row: nothing is imported.
      The worker also refreshes them monthly through the provider when DR_PROVIDER_KEY is set.

  fx set CURRENCY RATE [--on DATE]
  fx show
      Exchange rates the revenue board converts with: RATE is how many USD one unit of CURRENCY
      is worth (e.g. fx set EUR 1.08), valid from DATE (default today).

  jobs dead-letters [--limit N] [--task T]
      Jobs set aside because their payload did not match their job (never retried), newest first
      (default 20, at most 500): id, task, when, graphile-worker's job id, attempts, why, and the
      payload (abbreviated). T is a task name, e.g. send_mail.

  jobs requeue <id>
      Queue the job again with its stored payload and remove the dead letter: for after a deploy
      whose job accepts it. A payload this version still refuses is left where it is (exit 1).

  jobs discard <id> --reason R
      Delete the dead letter; it and R are kept in the audit trail.

  help
      This text.

Changes are audited under OPS_ACTOR (default: the system user name).
Uses DATABASE_URL, or the embedded PostgreSQL that npm start runs under DATA_DIR (never starts or creates one).
Exit codes: 0 done, 1 not found or not done, 2 bad usage.`;
