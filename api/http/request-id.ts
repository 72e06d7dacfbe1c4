/** Request ids by request: made once, so the header, the logs and a problem's `instance` agree. */
const ids = new WeakMap<Request, string>();

/** The request's id: the `X-Request-Id` it was sent with (at most 100 characters), else a new UUID. */
export function requestIdOf(request: Request): string {
  let id = ids.get(request);
  if (id === undefined) {
    id = request.headers.get('x-request-id')?.slice(0, 100) || crypto.randomUUID();
    ids.set(request, id);
  }
  return id;
}
