import { MigrationInterface, QueryRunner } from 'typeorm';

/** Assisted selection reads the manifests of a lineage (and what was recalled of them) by origin. */
export class ManifestsByOrigin1796047200000 implements MigrationInterface {
  name = 'ManifestsByOrigin1796047200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX projection_manifests_origin ON projection_manifests (origin_id)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX projection_manifests_origin`);
  }
}
