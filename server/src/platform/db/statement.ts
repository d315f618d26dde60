import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { preparedQuery } from './prepared';
import { WriteTransaction } from './write-transaction';

/**
 * Builds one SQL statement from several data-modifying parts. PostgreSQL runs them together and
 * checks foreign keys at the end, so rows that reference each other can go in one round trip.
 * Its shape follows the row counts, which vary little, so it is kept prepared.
 */
export class CombinedStatement {
  private readonly parameters: unknown[] = [];
  private readonly parts: string[] = [];

  constructor(private readonly manager: EntityManager) {}

  private parameter(value: unknown): string {
    this.parameters.push(value);
    return `$${this.parameters.length}`;
  }

  /** INSERT of entity rows, every mapped column written. */
  insert<T extends ObjectLiteral>(target: EntityTarget<T>, rows: T[]): this {
    if (rows.length === 0) return this;
    const metadata = this.manager.connection.getMetadata(target);
    const columns = metadata.columns;
    const values = rows.map(
      (row) =>
        `(${columns
          .map((column) => {
            const value = (row as Record<string, unknown>)[column.propertyName] ?? null;
            return column.type === 'jsonb'
              ? `${this.parameter(value === null ? null : JSON.stringify(value))}::jsonb`
              : this.parameter(value);
          })
          .join(', ')})`,
    );
    this.parts.push(
      `INSERT INTO ${metadata.tableName} (${columns.map((column) => column.databaseName).join(', ')}) VALUES ${values.join(', ')}`,
    );
    return this;
  }

  /** A hand-written part; `$n` placeholders refer to `values` in order. */
  raw(sql: string, values: unknown[]): this {
    this.parts.push(sql.replace(/\$(\d+)/g, (_, index: string) => this.parameter(values[Number(index) - 1])));
    return this;
  }

  private text(): string {
    const [last, ...before] = [...this.parts].reverse();
    const ctes = before.reverse().map((part, index) => `write_${index} AS (${part})`);
    return ctes.length ? `WITH ${ctes.join(', ')} ${last}` : last;
  }

  async execute(): Promise<void> {
    if (this.parts.length === 0) return;
    await preparedQuery(this.manager, this.text(), this.parameters);
  }

  /** Runs the statement as the last of `transaction`, and commits. */
  async commitIn(transaction: WriteTransaction): Promise<void> {
    if (this.parts.length === 0) throw new Error('Nothing to write');
    await transaction.commit(this.text(), this.parameters);
  }
}
