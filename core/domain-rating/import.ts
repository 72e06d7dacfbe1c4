// The embedded source of Domain Ratings: a CSV an operator imports (`ops dr import FILE.csv`) with
// the columns domain, rating, measured_on, for example exported from the provider's own interface.
import { parse } from 'csv-parse/sync';
import { transaction, type Sql } from '../../sql/db.ts';

export interface ImportResult {
  rows: number;
  imported: number;
  unknownDomains: string[];
  errors: { line: number; message: string }[];
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Reads the CSV (a header row naming the three columns); every bad row is reported and nothing is stored when any is bad. */
export async function importDomainRatings(sql: Sql, csv: string): Promise<ImportResult> {
  let records: Record<string, string>[];
  try {
    records = parse(csv, { columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()), skip_empty_lines: true, trim: true, bom: true });
  } catch (e) {
    return { rows: 0, imported: 0, unknownDomains: [], errors: [{ line: 1, message: (e as Error).message }] };
  }
  const errors: ImportResult['errors'] = [];
  const rows: { domain: string; rating: number; day: string }[] = [];
  records.forEach((r, i) => {
    const line = i + 2;
    const domain = (r.domain ?? '')
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .replace(/^www\./, '')
      .replace(/\/.*$/, '');
    const rating = Number(r.rating);
    const day = r.measured_on ?? '';
    if (!domain || domain.length > 253) errors.push({ line, message: 'domain is missing' });
    else if (!(r.rating ?? '').match(/^\d+(\.\d+)?$/) || rating < 0 || rating > 100)
      errors.push({ line, message: `rating must be a number from 0 to 100, got "${r.rating ?? ''}"` });
    else if (!DAY.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)))
      errors.push({ line, message: `measured_on must be a date YYYY-MM-DD, got "${day}"` });
    else rows.push({ domain, rating: Math.round(rating), day });
  });
  if (errors.length) return { rows: records.length, imported: 0, unknownDomains: [], errors };
  return transaction(sql, async (tx) => {
    const stored = await tx<{ domain: string }[]>`
      insert into domain_ratings (company_id, measured_on, rating, source)
      select c.id, x.day::date, x.rating, 'import'
      from jsonb_to_recordset(${tx.json(rows as never)}) as x(domain text, rating int, day text)
      join companies c on lower(c.domain) = x.domain
      on conflict (company_id, measured_on) do update set rating = excluded.rating, source = 'import'
      returning (select lower(domain) from companies where id = company_id) as domain`;
    const known = new Set(stored.map((s) => s.domain));
    return { rows: records.length, imported: stored.length, unknownDomains: [...new Set(rows.map((r) => r.domain).filter((d) => !known.has(d)))], errors: [] };
  });
}
