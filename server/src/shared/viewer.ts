/** The authenticated caller: every read and write is scoped to its account. */
export interface Viewer {
  accountId: string;
  name: string;
  isAdmin: boolean;
}
