import { describe, expect, test } from 'bun:test';
import { renderDocument, renderFragment } from './document.tsx';

describe('server-rendered pages', () => {
  test('every text child and attribute value is escaped', () => {
    const hostile = `"><script>alert(1)</script><a href='x'>`;
    const out = renderFragment(
      <p title={hostile} data-x={hostile}>
        {hostile}
      </p>,
    );
    expect(out).not.toContain('<script>');
    expect(out).not.toContain(`"><`);
    expect(out).toContain('&lt;script>');
  });

  test('a document starts with the doctype; trusted markup goes in only through dangerouslySetInnerHTML', () => {
    const out = renderDocument(
      <html lang="en">
        <body>
          <div dangerouslySetInnerHTML={{ __html: '<em>ok</em>' }} />
        </body>
      </html>,
    );
    expect(out.startsWith('<!doctype html><html lang="en">')).toBe(true);
    expect(out).toContain('<em>ok</em>');
  });
});
