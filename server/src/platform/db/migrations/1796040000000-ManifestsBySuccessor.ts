import { MigrationInterface, QueryRunner } from 'typeorm';

/** A successor's banner and handoff view find its manifest by the successor: an index probe, not a scan. */
export class ManifestsBySuccessor1796040000000 implements MigrationInterface {
  name = 'ManifestsBySuccessor1796040000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX projection_manifests_successor ON projection_manifests (successor_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX projection_manifests_successor`);
  }
}
