import type { MailMessage } from '../../core/mail/outbox.ts';
import { renderFragment } from '../view/document.tsx';

/** The e-mail with a sign-in link. The link opens a page with a button; opening it alone signs nobody in. */
export function signInMail(opts: { to: string; link: string; siteName: string; ttlMinutes: number }): MailMessage {
  const subject = `Sign in to ${opts.siteName}`;
  const text = [
    `Someone (hopefully you) asked to sign in to ${opts.siteName} with this address.`,
    '',
    'Open this link to sign in:',
    opts.link,
    '',
    `The link works once and expires in ${opts.ttlMinutes} minutes.`,
    'If you did not ask for it, ignore this mail: nothing happens until the link is used.',
  ].join('\n');
  const body = renderFragment(
    <>
      <p>Someone (hopefully you) asked to sign in to {opts.siteName} with this address.</p>
      <p>
        <a href={opts.link}>Sign in to {opts.siteName}</a>
      </p>
      <p>The link works once and expires in {opts.ttlMinutes} minutes. If you did not ask for it, ignore this mail: nothing happens until the link is used.</p>
    </>,
  );
  return { to: opts.to, subject, text, html: body, kind: 'sign_in' };
}
