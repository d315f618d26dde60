import { Foundation1796018400000 } from './1796018400000-Foundation';

/** Every migration, oldest first; the same list runs on PostgreSQL and on the embedded database. */
export const migrations = [Foundation1796018400000];
