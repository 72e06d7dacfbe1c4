import { randomBytes } from 'node:crypto';

// Crockford base32 without I, L, O, U: no look-alikes when read out or typed from an invoice.
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new order number: "LD-" and 16 random base32 characters in groups of four (80 random bits,
 * 22 characters): short enough to read out, impossible to guess or enumerate.
 */
export function newOrderNumber(): string {
  const bytes = randomBytes(16);
  let out = '';
  for (let i = 0; i < 16; i++) out += ALPHABET[bytes[i] & 31];
  return `LD-${out.match(/.{4}/g)!.join('-')}`;
}

export const ORDER_NUMBER_PATTERN = '^LD(-[0-9A-Z]{4}){4}$';
