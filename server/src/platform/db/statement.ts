import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { keptCanonicalJson } from '../../shared/canonical-json';
import { preparedQuery } from './prepared';
import { tableColumns } from './rows';
import { WriteTransaction } from './write-transaction';

/** Statement texts by shape: the same few shapes recur, and a text is a few kilobytes to build. */
const texts = new Map<string, string>();
const TEXTS_KEPT = 1_000;

/** A JSON column's text: the canonical JSON its row's hash already encoded, or JSON. */
function jsonText(value: unknown): string {
  return (typeof value === 'object' && keptCanonicalJson(value as object)) || JSON.stringify(value);
}

/**
 * Builds one SQL statement from several data-modifying parts. PostgreSQL runs them together and
 * checks foreign keys at the end, so rows that reference each other can go in one round trip.
 * Its shape follows the row counts, which vary little, so it is kept prepared, and its text is
 * built once per shape.
 */
export class CombinedStatement {
  private readonly parameters: unknown[] = [];
  /** What the text is made of: each part as a table and row count, or a hand-written part's SQL. */
  private readonly shape: string[] = [];
  private readonly builders: (() => string)[] = [];

  constructor(private readonly manager: EntityManager) {}

  /** INSERT of entity rows, every mapped column written. */
  insert<T extends ObjectLiteral>(target: EntityTarget<T>, rows: T[]): this {
    if (rows.length === 0) return this;
    // The columns as plain records kept per entity, not read from TypeORM's metadata on every row.
    const { tableName, columns } = tableColumns(this.manager, target);
    const first = this.parameters.length + 1;
    for (const row of rows) {
      for (const { propertyName, isJson } of columns) {
        const value = (row as Record<string, unknown>)[propertyName] ?? null;
        this.parameters.push(isJson && value !== null ? jsonText(value) : value);
      }
    }
    this.shape.push(`${tableName}:${first}:${rows.length}`);
    this.builders.push(() => {
      const values = rows.map(
        (_, row) => `(${columns.map(({ isJson }, index) => `$${first + row * columns.length + index}${isJson ? '::jsonb' : ''}`).join(', ')})`,
      );
      return `INSERT INTO ${tableName} (${columns.map(({ databaseName }) => databaseName).join(', ')}) VALUES ${values.join(', ')}`;
    });
    return this;
  }

  /** A hand-written part; `$n` placeholders refer to `values` in order. */
  raw(sql: string, values: unknown[]): this {
    const first = this.parameters.length + 1;
    this.parameters.push(...values);
    this.shape.push(`${first}:${sql}`);
    this.builders.push(() => sql.replace(/\$(\d+)/g, (_, index: string) => `$${first + Number(index) - 1}`));
    return this;
  }

  private text(): string {
    const shape = this.shape.join('\u0000');
    let text = texts.get(shape);
    if (text === undefined) {
      const parts = this.builders.map((build) => build());
      const last = parts.pop()!;
      const ctes = parts.map((part, index) => `write_${index} AS (${part})`);
      text = ctes.length ? `WITH ${ctes.join(', ')} ${last}` : last;
      if (texts.size >= TEXTS_KEPT) texts.clear();
      texts.set(shape, text);
    }
    return text;
  }

  async execute(): Promise<void> {
    if (this.shape.length === 0) return;
    await preparedQuery(this.manager, this.text(), this.parameters);
  }

  /** Runs the statement as the last of `transaction`, and commits. */
  async commitIn(transaction: WriteTransaction): Promise<void> {
    if (this.shape.length === 0) throw new Error('Nothing to write');
    await transaction.commit(this.text(), this.parameters);
  }
}
