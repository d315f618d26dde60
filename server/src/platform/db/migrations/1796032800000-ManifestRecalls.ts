import { MigrationInterface, QueryRunner } from 'typeorm';

/** How often each manifest item was recalled: kept beside the immutable manifest, not in it. */
export class ManifestRecalls1796032800000 implements MigrationInterface {
  name = 'ManifestRecalls1796032800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE manifest_item_recalls (
        manifest_id uuid NOT NULL REFERENCES projection_manifests (id),
        item_index integer NOT NULL CHECK (item_index >= 0),
        recall_count integer NOT NULL CHECK (recall_count > 0),
        PRIMARY KEY (manifest_id, item_index)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE manifest_item_recalls`);
  }
}
