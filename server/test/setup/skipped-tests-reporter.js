/**
 * Names the tests a run skipped, file by file, after the summary: without TEST_DATABASE_URL (and
 * DATABASE_POOLER_URL, DATABASE_REPLICA_URL) the tests that need PostgreSQL, a pooler or a replica
 * are skipped, and a count alone would not say which.
 */
class SkippedTestsReporter {
  onRunComplete(_contexts, results) {
    const lines = [];
    for (const file of results.testResults) {
      const skipped = file.testResults.filter((test) => test.status === 'pending' || test.status === 'skipped');
      if (skipped.length === 0) continue;
      lines.push(`  ${require('node:path').relative(process.cwd(), file.testFilePath)}`);
      for (const test of skipped) lines.push(`    ${[...test.ancestorTitles, test.title].join(' › ')}`);
    }
    if (lines.length === 0) return;
    const needs = process.env.TEST_DATABASE_URL ? 'a pooler or a replica (see docs/development.md)' : 'PostgreSQL: set DATABASE_URL (see docs/development.md)';
    process.stderr.write(`\nSkipped, as they need ${needs}:\n${lines.join('\n')}\n`);
  }
}

module.exports = SkippedTestsReporter;
