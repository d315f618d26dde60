import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createAppPubSub } from '../api/pubsub';
import { buildAppSchema, printAppSchema } from '../api/schema';

/** Writes the API's SDL to the repository's schema.graphql (run by the build). */
async function emitSchema(): Promise<void> {
  const target = path.resolve(__dirname, '..', '..', '..', 'schema.graphql');
  await writeFile(target, printAppSchema(await buildAppSchema(createAppPubSub())));
  console.log(`Wrote ${path.relative(process.cwd(), target)}`);
}

emitSchema().catch((error) => {
  console.error(error);
  process.exit(1);
});
