import type { Knex } from '@workspace/kit';

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/** A table row's type with its snake_case columns named in camelCase: the record a store hands out. */
export type Camelised<Row> = { [Key in keyof Row as CamelCase<Key & string>]: Row[Key] };

const camelNames = new Map<string, string>();
const snakeNames = new Map<string, string>();

const camelName = (column: string): string => {
  let name = camelNames.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
    camelNames.set(column, name);
  }
  return name;
};

const snakeName = (field: string): string => {
  let name = snakeNames.get(field);
  if (name === undefined) {
    name = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    snakeNames.set(field, name);
  }
  return name;
};

/** A row as its record (every column renamed, values untouched). */
export function camelise<Row extends object>(row: Row): Camelised<Row> {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) record[camelName(column)] = value;
  return record as Camelised<Row>;
}

/** A record's fields as the columns a write sets (undefined fields left out). */
export function snakeise(fields: object): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields))
    if (value !== undefined) columns[snakeName(field)] = value;
  return columns;
}

/** True when PostgreSQL refused a write for a unique index (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** `work` in a savepoint of `trx`: a failure inside rolls back only the savepoint, the transaction goes on. */
export function inSavepoint<T>(
  trx: Knex.Transaction,
  work: (inner: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return trx.transaction(work);
}

/** A LIKE pattern matching `text` anywhere, its wildcards escaped. */
export const containing = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Sends a PostgreSQL notification on `channel`, delivered to listeners when the transaction commits. */
export async function notify(trx: Knex.Transaction, channel: string, payload: string): Promise<void> {
  await trx.raw('SELECT pg_notify(?, ?)', [channel, payload]);
}

/** Sends several notifications on `channel` in one statement, in the given order (delivered at commit). */
export async function notifyAll(trx: Knex.Transaction, channel: string, payloads: string[]): Promise<void> {
  if (payloads.length === 0) return;
  await trx.raw('SELECT pg_notify(?, payload) FROM json_array_elements_text(?::json) AS t(payload)', [
    channel,
    JSON.stringify(payloads),
  ]);
}
