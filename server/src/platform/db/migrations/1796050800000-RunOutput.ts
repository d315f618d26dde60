import { MigrationInterface, QueryRunner } from 'typeorm';

/** A run's answer as produced so far, readable by every process while the run streams it. */
export class RunOutput1796050800000 implements MigrationInterface {
  name = 'RunOutput1796050800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE runs ADD COLUMN output text`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE runs DROP COLUMN output`);
  }
}
