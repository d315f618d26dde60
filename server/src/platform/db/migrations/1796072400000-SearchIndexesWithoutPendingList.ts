import { MigrationInterface, QueryRunner } from 'typeorm';

const SEARCH_INDEXES = ['events_search', 'resource_versions_search', 'memory_entries_search'];

/**
 * The search indexes take a row's words as the row is written, instead of queueing them in GIN's
 * pending list, which every search reads through until a vacuum merges it: up to 4 MB by default
 * (`gin_pending_list_limit`), and the embedded database never vacuums on its own. At 1,000,000
 * events a full pending list cost every index scan 2 to 7 ms, several per search; writing in place
 * cost appends nothing measurable (3,000 single-row inserts, either way about 0.1 ms each).
 */
export class SearchIndexesWithoutPendingList1796072400000 implements MigrationInterface {
  name = 'SearchIndexesWithoutPendingList1796072400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const index of SEARCH_INDEXES) {
      await queryRunner.query(`ALTER INDEX ${index} SET (fastupdate = off)`);
      // What is already queued stays queued until merged.
      await queryRunner.query(`SELECT gin_clean_pending_list('${index}'::regclass)`);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of SEARCH_INDEXES) await queryRunner.query(`ALTER INDEX ${index} RESET (fastupdate)`);
  }
}
