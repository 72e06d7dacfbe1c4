import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A whole statement kept as sql/queries/NAME.sql, read once when its module loads. */
export const statementFile = (name: string) => readFileSync(join(import.meta.dirname, `${name}.sql`), 'utf8');
