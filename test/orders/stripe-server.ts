// A Stripe-compatible HTTP server on loopback for tests: the few endpoints the service calls
// (create and expire Checkout Sessions), answering like api.stripe.com does, recording what it got.
// The official `stripe` package talks to it through its host/port/protocol settings.

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'expired' | 'complete';
  expires_at: number;
  line_items: { name: string; unit_amount: number; quantity: number; currency: string }[];
}

export interface FakeStripe {
  url: string;
  port: number;
  sessions: Map<string, FakeSession>;
  requests: { method: string; path: string; auth: string | null }[];
  refunds: { id: string; payment_intent: string; metadata: Record<string, string> }[];
  /** Subscriptions of the account behind each API key (restricted rk_test_ keys too), as GET /v1/subscriptions lists them. */
  subscriptions: Map<string, FakeSubscription[]>;
  stop(): void;
  start(): void;
}

export interface FakeSubscription {
  id: string;
  object: 'subscription';
  status: 'active' | 'trialing' | 'canceled' | 'past_due';
  currency: string;
  customer: string;
  items: {
    object: 'list';
    data: { quantity: number; price: { unit_amount: number; currency: string; recurring: { interval: string; interval_count: number } } }[];
  };
}

/** Turns Stripe's form encoding (line_items[0][price_data][unit_amount]=...) into nested objects. */
function parseForm(body: string): Record<string, any> {
  const out: Record<string, any> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.replace(/\]/g, '').split('[');
    let cur = out;
    parts.forEach((p, i) => {
      if (i === parts.length - 1) cur[p] = value;
      else cur = cur[p] ??= {};
    });
  }
  return out;
}

let n = 0;
const error = (status: number, message: string) => Response.json({ error: { type: 'invalid_request_error', message } }, { status });

export function startFakeStripe(port = 0): FakeStripe {
  const sessions = new Map<string, FakeSession>();
  const requests: FakeStripe['requests'] = [];
  const refunds: FakeStripe['refunds'] = [];
  const subscriptions = new Map<string, FakeSubscription[]>();
  const handler = async (req: Request) => {
    const url = new URL(req.url);
    requests.push({ method: req.method, path: url.pathname, auth: req.headers.get('authorization') });
    if (req.method === 'GET' && url.pathname === '/v1/subscriptions') {
      const key = req.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
      const all = subscriptions.get(key);
      if (!all) return error(401, 'Invalid API Key provided');
      const status = url.searchParams.get('status');
      const matching = all.filter((s) => !status || status === 'all' || s.status === status);
      const after = url.searchParams.get('starting_after');
      const start = after ? matching.findIndex((s) => s.id === after) + 1 : 0;
      const limit = Number(url.searchParams.get('limit') ?? 10);
      const data = matching.slice(start, start + limit);
      return Response.json({ object: 'list', url: '/v1/subscriptions', has_more: start + limit < matching.length, data });
    }
    if (!req.headers.get('authorization')?.startsWith('Bearer sk_test_')) return error(401, 'Invalid API Key provided');
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const f = parseForm(await req.text());
      const items = Object.values<any>(f.line_items ?? {}).map((li) => ({
        name: li.price_data.product_data.name,
        unit_amount: Number(li.price_data.unit_amount),
        quantity: Number(li.quantity),
        currency: li.price_data.currency,
      }));
      if (!items.length) return error(400, 'line_items required');
      const id = `cs_test_${++n}_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
      const s: FakeSession = {
        id,
        object: 'checkout.session',
        url: `https://checkout.stripe.com/c/pay/${id}`,
        currency: items[0].currency,
        amount_total: items.reduce((sum, i) => sum + i.unit_amount * i.quantity, 0),
        client_reference_id: f.client_reference_id ?? null,
        metadata: f.metadata ?? {},
        payment_intent: null,
        payment_status: 'unpaid',
        status: 'open',
        expires_at: Number(f.expires_at),
        line_items: items,
      };
      sessions.set(id, s);
      return Response.json(s);
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(url.pathname);
    if (req.method === 'POST' && expire) {
      const s = sessions.get(expire[1]);
      if (!s) return error(404, 'No such checkout.session');
      s.status = 'expired';
      return Response.json(s);
    }
    if (req.method === 'POST' && url.pathname === '/v1/refunds') {
      const f = parseForm(await req.text());
      const refund = { id: `re_test_${++n}`, object: 'refund', payment_intent: f.payment_intent, status: 'succeeded', metadata: f.metadata ?? {} };
      refunds.push(refund);
      return Response.json(refund);
    }
    return error(404, `Unrecognized request URL (${req.method}: ${url.pathname})`);
  };
  let server = Bun.serve({ hostname: '127.0.0.1', port, fetch: handler });
  const fake: FakeStripe = {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port!,
    sessions,
    requests,
    refunds,
    subscriptions,
    stop() {
      server.stop(true);
    },
    start() {
      server = Bun.serve({ hostname: '127.0.0.1', port: fake.port, fetch: handler });
    },
  };
  return fake;
}

/** The event Stripe sends when a Checkout Session is paid. */
export function sessionCompleted(s: FakeSession, over: { id?: string; amount_total?: number; currency?: string; created?: number } = {}) {
  const pi = `pi_test_${s.id.slice(8)}`;
  return {
    id: over.id ?? `evt_${crypto.randomUUID().replace(/-/g, '')}`,
    object: 'event',
    type: 'checkout.session.completed',
    api_version: '2025-01-27',
    created: over.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        ...s,
        line_items: undefined,
        status: 'complete',
        payment_status: 'paid',
        payment_intent: pi,
        amount_total: over.amount_total ?? s.amount_total,
        currency: over.currency ?? s.currency,
      },
    },
  };
}

/** The event Stripe sends when a charge of the session's PaymentIntent is refunded. */
export function chargeRefunded(s: FakeSession, over: { id?: string } = {}) {
  const pi = `pi_test_${s.id.slice(8)}`;
  return {
    id: over.id ?? `evt_${crypto.randomUUID().replace(/-/g, '')}`,
    object: 'event',
    type: 'charge.refunded',
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: {
      object: {
        id: `ch_${s.id.slice(8)}`,
        object: 'charge',
        amount: s.amount_total,
        amount_refunded: s.amount_total,
        currency: s.currency,
        refunded: true,
        payment_intent: pi,
        metadata: {},
      },
    },
  };
}
