export default async function globalTeardown(): Promise<void> {
  await globalThis.testDatabase?.drop();
}
