// The draft page's content: progress while the site is read and drafted, then every field with its
// value, state and evidence, edited in place, and the sections, invites and the Submit button.
import type { ComponentChildren, VNode } from 'preact';
import { CsrfField } from '../../pages/components.tsx';
import { safeHref } from '../../pages/format.ts';
import { SOCIAL_PLATFORMS } from '../../../core/drafts/fields.ts';

/** get_draft's answer, as much of it as the page shows. */
export type DraftJson = any;

export const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  tagline: 'Tagline',
  short_description: 'Short description',
  description: 'Description',
  stage: 'Stage',
  pricing_model: 'Pricing model',
  pricing_summary: 'Pricing summary',
  country: 'Country (two letters)',
  city: 'City',
  founded_year: 'Founded (year)',
  contact_email: 'Contact e-mail',
  demo_video_url: 'Demo video URL',
  logo_url: 'Logo URL',
  categories: 'Categories',
  tags: 'Tags',
  features: 'Features',
  usps: 'What sets it apart',
  keywords: 'Keywords',
};
const LIST_FIELDS = new Set(['categories', 'tags', 'features', 'usps', 'keywords']);
const LONG_FIELDS = new Set(['description', 'short_description', 'pricing_summary']);

export const STATE_LABELS: Record<string, string> = {
  ai: 'AI',
  not_found: 'not found on the site',
  edited: 'edited',
  manual: 'typed by you',
  override: 'locked',
  deleted: 'deleted',
};

const FAILURES: Record<string, string> = {
  robots_disallowed: "Your site's robots.txt does not allow our crawler to read it.",
  robots_unavailable: "Your site's robots.txt could not be read, so we did not crawl the site.",
  unreachable: 'Your site could not be reached.',
  refused_address: 'The site resolves to an address that is not public, so we do not read it.',
  not_html: 'The address does not answer with a web page.',
  too_large: 'The page is too large to read.',
  http_error: 'The site answered with an error.',
  off_site: 'The site redirects to another site.',
  drafting_failed: 'The profile could not be drafted from what the site says.',
  timed_out: 'Reading the site took too long.',
};

/** Whether the page is still changing on its own (crawl, drafting, redrafts, a comparison). */
export const isBusy = (d: DraftJson) =>
  d.status === 'crawling' ||
  d.status === 'drafting' ||
  d.regenerating.length > 0 ||
  d.comparison?.status === 'crawling' ||
  d.comparison?.status === 'comparing';

/** The progress line, the same on the page and in the JSON its script polls. */
export function progressText(d: DraftJson): string {
  const pages = d.crawl.pages.length;
  const n = `${pages} ${pages === 1 ? 'page' : 'pages'}`;
  if (d.status === 'crawling') return `Reading ${d.domain}: ${n} read so far.`;
  if (d.status === 'drafting') return `Drafting the profile from ${n}.`;
  if (d.regenerating.length) return `Redrafting: ${d.regenerating.join(', ')}.`;
  if (d.status === 'failed') return 'This draft could not be made.';
  return `Ready: ${d.completeness}% complete.`;
}

export function Progress({ d }: { d: DraftJson }) {
  const pages = d.crawl.pages.length;
  const words = progressText(d);
  return (
    <section class="progress" aria-labelledby="progress-h" data-draft={d.id} data-status={d.status} data-busy={isBusy(d) ? 'yes' : 'no'}>
      <h2 id="progress-h">Progress</h2>
      <p role="status" aria-live="polite" class="progress-text">
        {words}
      </p>
      {isBusy(d) ? (
        <>
          {/* Without JavaScript the page refreshes itself until the work is done. */}
          <noscript>
            <meta http-equiv="refresh" content="3" />
          </noscript>
          <p class="meta">
            This page updates by itself. <a href={`/me/drafts/${d.id}`}>Refresh</a>
          </p>
        </>
      ) : null}
      {d.failure ? (
        <div class="error" role="alert">
          <p>{FAILURES[d.failure.reason] ?? 'The site could not be read.'}</p>
          {d.failure.detail ? <p class="meta">{d.failure.detail}</p> : null}
          <p>
            Fix the cause and <a href={`/submit?url=${encodeURIComponent(d.url)}`}>submit the address again</a>, or type the values yourself below.
          </p>
        </div>
      ) : null}
      {pages ? (
        <details>
          <summary>Pages read ({pages})</summary>
          <ul>
            {d.crawl.pages.map((p: { url: string; title: string | null }) => (
              <li>
                <PageLink url={p.url} text={p.title || p.url} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}

/** A link to a crawled page (only http(s) becomes a link). */
function PageLink({ url, text }: { url: string; text: string }) {
  const href = safeHref(url);
  return href ? (
    <a href={href} rel="nofollow noopener">
      {text}
    </a>
  ) : (
    text
  );
}

export function EvidenceList({ evidence }: { evidence: { quote: string; url: string }[] }) {
  if (!evidence?.length) return null;
  return (
    <ul class="evidence">
      {evidence.map((e) => (
        <li>
          <q>{e.quote}</q> (<PageLink url={e.url} text={pathOf(e.url)} />)
        </li>
      ))}
    </ul>
  );
}
const pathOf = (u: string) => {
  try {
    return new URL(u).pathname || '/';
  } catch {
    return u;
  }
};

const shown = (v: string | string[] | null) => (v === null ? '' : Array.isArray(v) ? v.join('\n') : v);

/** One profile field: value, state, evidence, and the form that edits, locks, redrafts or restores it. */
function FieldRow({ d, name, csrf }: { d: DraftJson; name: string; csrf: string }) {
  const f = d.fields[name];
  const id = `f-${name}`;
  const state: string | null = f.state;
  const ready = d.status === 'ready';
  const aiDrafted = d.status === 'ready' || d.status === 'failed';
  const regenerating = d.regenerating.includes(name);
  const input = LIST_FIELDS.has(name) ? (
    <textarea id={id} name="value" rows={4} aria-describedby={`${id}-state`}>
      {shown(f.value)}
    </textarea>
  ) : LONG_FIELDS.has(name) ? (
    <textarea id={id} name="value" rows={name === 'description' ? 8 : 3} aria-describedby={`${id}-state`}>
      {shown(f.value)}
    </textarea>
  ) : (
    <input type="text" id={id} name="value" value={shown(f.value)} aria-describedby={`${id}-state`} />
  );
  return (
    <li class="field" id={`field-${name}`}>
      <form method="post" action={`/me/drafts/${d.id}/field`}>
        <CsrfField token={csrf} />
        <input type="hidden" name="field" value={name} />
        <label for={id}>{FIELD_LABELS[name] ?? name}</label>
        {input}
        <p class="meta" id={`${id}-state`}>
          State: <span class="tag">{state ? STATE_LABELS[state] : 'not drafted yet'}</span>
          {regenerating ? ' · being redrafted' : ''}
          {LIST_FIELDS.has(name) ? ' · one per line' : ''}
        </p>
        <EvidenceList evidence={f.evidence} />
        <div class="actions">
          <button type="submit" name="do" value="save">
            Save
          </button>
          {state !== 'override' ? (
            <button type="submit" name="do" value="lock" class="secondary">
              Lock
            </button>
          ) : null}
          {ready && state !== 'override' && !regenerating ? (
            <button type="submit" name="do" value="regenerate" class="secondary">
              Regenerate
            </button>
          ) : null}
          {aiDrafted && state && state !== 'ai' && state !== 'not_found' ? (
            <button type="submit" name="do" value="restore" class="secondary">
              Restore AI value
            </button>
          ) : null}
        </div>
      </form>
    </li>
  );
}

/** A drafted section (FAQs, founders, socials, story, milestones): its content and its buttons. */
function SectionBlock({ d, name, title, csrf, children }: { d: DraftJson; name: string; title: string; csrf: string; children: ComponentChildren }) {
  const s = d[name];
  const state: string | null = s.state;
  return (
    <section aria-labelledby={`s-${name}`} class="draft-section">
      <h3 id={`s-${name}`}>{title}</h3>
      <p class="meta">
        State: <span class="tag">{state ? STATE_LABELS[state] : 'not drafted yet'}</span>
      </p>
      {children}
      <form method="post" action={`/me/drafts/${d.id}/field`} class="actions">
        <CsrfField token={csrf} />
        <input type="hidden" name="field" value={name} />
        {state !== 'override' ? (
          <button type="submit" name="do" value="lock" class="secondary" aria-label={`Lock ${title}`}>
            Lock
          </button>
        ) : null}
        {d.status === 'ready' && state !== 'override' && !d.regenerating.includes(name) ? (
          <button type="submit" name="do" value="regenerate" class="secondary" aria-label={`Regenerate ${title}`}>
            Regenerate
          </button>
        ) : null}
        {state && state !== 'ai' && state !== 'not_found' && d.status !== 'crawling' && d.status !== 'drafting' ? (
          <button type="submit" name="do" value="restore" class="secondary" aria-label={`Restore ${title}`}>
            Restore AI value
          </button>
        ) : null}
      </form>
    </section>
  );
}

export function DraftBody({ d, csrf, error, done }: { d: DraftJson; csrf: string; error: VNode | null; done?: string | null }) {
  const socials = Object.entries(d.company_socials.value as Record<string, string>);
  return (
    <>
      <h1>Draft: {d.fields.name.value ? String(d.fields.name.value) : d.domain}</h1>
      <p class="meta">
        From <PageLink url={d.url} text={d.url} />. Every value below is quoted from your site; what it does not say stays blank.
      </p>
      {error}
      {done ? (
        <p class="notice" role="status">
          {done}
        </p>
      ) : null}
      <Progress d={d} />
      {d.status === 'crawling' || d.status === 'drafting' ? null : (
        <>
          <h2>Profile</h2>
          {d.missing.length ? <p class="meta">Still missing: {d.missing.join(', ')}.</p> : null}
          {d.regenerate_error ? <p class="error">The last redraft failed: {d.regenerate_error}</p> : null}
          <ul class="fields">
            {Object.keys(FIELD_LABELS).map((name) => (
              <FieldRow d={d} name={name} csrf={csrf} />
            ))}
          </ul>
          <h2>Sections</h2>
          <SectionBlock d={d} name="faqs" title="FAQs" csrf={csrf}>
            {d.faqs.value.length ? (
              <dl class="faq">
                {d.faqs.value.map((f: any) => (
                  <>
                    <dt>{f.question}</dt>
                    <dd>
                      {f.answer}
                      <EvidenceList evidence={f.evidence} />
                    </dd>
                  </>
                ))}
              </dl>
            ) : (
              <p class="empty">None.</p>
            )}
          </SectionBlock>
          <SectionBlock d={d} name="founders" title="Founders" csrf={csrf}>
            {d.founders.value.length ? (
              <ul>
                {d.founders.value.map((f: any) => (
                  <li>
                    <strong>{f.name}</strong>
                    {f.title ? `, ${f.title}` : ''}
                    {f.bio ? <p>{f.bio}</p> : null}
                    <EvidenceList evidence={f.evidence} />
                  </li>
                ))}
              </ul>
            ) : (
              <p class="empty">None.</p>
            )}
          </SectionBlock>
          <SectionBlock d={d} name="company_socials" title="Company links" csrf={csrf}>
            {socials.length ? (
              <ul>
                {socials.map(([platform, url]) => (
                  <li>
                    {platform}: <PageLink url={url} text={url} />
                    <EvidenceList evidence={d.company_socials.evidence[platform]} />
                  </li>
                ))}
              </ul>
            ) : (
              <p class="empty">None.</p>
            )}
            <details>
              <summary>Edit the links</summary>
              <form method="post" action={`/me/drafts/${d.id}/socials`}>
                <CsrfField token={csrf} />
                {SOCIAL_PLATFORMS.map((p) => (
                  <div class="field">
                    <label for={`so-${p}`}>{p}</label>
                    <input type="url" id={`so-${p}`} name={p} value={(d.company_socials.value as Record<string, string>)[p] ?? ''} maxLength={500} />
                  </div>
                ))}
                <button type="submit">Save links</button>
              </form>
            </details>
          </SectionBlock>
          <h2 id="cofounders">Co-founders</h2>
          <p>Invite a co-founder to add their own profile (name, role, bio) to this draft. They get a link by e-mail; no account needed.</p>
          {d.invites.length ? (
            <ul>
              {d.invites.map((i: any) => (
                <li>
                  {i.email}: {i.status}
                </li>
              ))}
            </ul>
          ) : null}
          <form method="post" action={`/me/drafts/${d.id}/invite`}>
            <CsrfField token={csrf} />
            <label for="invite-email">Co-founder's e-mail</label>
            <input type="email" id="invite-email" name="email" required maxLength={254} autocomplete="off" />
            <button type="submit">Invite</button>
          </form>
          <h2 id="submit">Submit</h2>
          {d.listing_id ? (
            <p>
              Submitted: <a href={`/me/listings/${d.listing_id}`}>your listing</a>. Edits here update it.
            </p>
          ) : (
            <p>Submitting saves the draft as your listing (not yet public). Then you choose a launch.</p>
          )}
          <form method="post" action={`/me/drafts/${d.id}/submit`}>
            <CsrfField token={csrf} />
            <button type="submit">{d.listing_id ? 'Submit again' : 'Submit'}</button>
          </form>
        </>
      )}
      <script src="/assets/maker.js" defer />
    </>
  );
}
