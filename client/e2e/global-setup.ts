import { scratchFolder } from '../../server/test/setup/scratch-folder';

/** The servers' embedded data folders and the browsers' profiles go where the server's tests keep theirs. */
export default function globalSetup(): void {
  const scratch = scratchFolder();
  if (scratch) process.env.TMPDIR = scratch;
}
