import { rm } from 'node:fs/promises';
import { TEMPLATE_DIR_VARIABLE } from './api-server';

export default async function globalTeardown(): Promise<void> {
  const templateDir = process.env[TEMPLATE_DIR_VARIABLE];
  if (templateDir) await rm(templateDir, { recursive: true, force: true });
}
