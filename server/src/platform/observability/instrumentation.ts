import { startTracing } from './tracing';

/** Started by the entry point's first import, before `http`, `graphql` and `pg` are loaded: tracing patches them as they load. */
export const tracing = startTracing(process.env);
