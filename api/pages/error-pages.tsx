import type { Rendered } from './rendered.ts';

export const notFoundRenderer = (): Rendered => ({
  meta: { title: 'Page not found', description: 'There is nothing at this address.', path: '/404', noindex: true },
  body: (
    <>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. Try <a href="/search">searching</a> or go to the <a href="/">home page</a>.
      </p>
    </>
  ),
  status: 404,
});

export const badRequestRenderer = (message: string): Rendered => ({
  meta: { title: 'Bad request', description: 'The address was not understood.', path: '/400', noindex: true },
  body: (
    <>
      <h1>Bad request</h1>
      <p>{message}</p>
      <p>
        <a href="/">Home</a>
      </p>
    </>
  ),
  status: 400,
});

export const unavailableRenderer = (): Rendered => ({
  meta: { title: 'Temporarily unavailable', description: 'The site cannot answer for a moment.', path: '/503', noindex: true },
  body: (
    <>
      <h1>Temporarily unavailable</h1>
      <p>The site cannot answer right now. Please try again in a few seconds.</p>
    </>
  ),
  status: 503,
});

// No internals: the message is fixed.
export const serverErrorRenderer = (): Rendered => ({
  meta: { title: 'Something went wrong', description: 'An unexpected error occurred.', path: '/500', noindex: true },
  body: (
    <>
      <h1>Something went wrong</h1>
      <p>An unexpected error occurred. Please try again in a moment.</p>
      <p>
        <a href="/">Home</a>
      </p>
    </>
  ),
  status: 500,
});
