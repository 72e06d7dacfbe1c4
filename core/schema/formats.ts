// TypeBox knows no string formats until they are registered; these are the ones the spec and the
// job payloads use. Every module that checks a schema with a format registers them first
// (registering again is harmless), so what is accepted does not depend on which module loaded first.
import { FormatRegistry } from '@sinclair/typebox';

export const FORMATS: Record<string, (v: string) => boolean> = {
  date: (v) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false;
    const d = new Date(`${v}T00:00:00Z`); // month 13 is an Invalid Date, and Feb 30 rolls over
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  },
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(v) && !Number.isNaN(Date.parse(v)),
  // The WHATWG form a browser's <input type=email> accepts: practical, not RFC 5322 in full.
  email: (v) => /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/.test(v),
  uri: (v) => {
    try {
      return Boolean(new URL(v).protocol);
    } catch {
      return false;
    }
  },
  uuid: (v) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(v),
};

/** Registers our formats, replacing any registered before (Elysia registers its own on import). */
export function registerFormats(): void {
  for (const [name, test] of Object.entries(FORMATS)) FormatRegistry.Set(name, test);
}
