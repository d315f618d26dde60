// Imported first by run.ts: the server is measured as it runs in production (the Docker image sets
// NODE_ENV=production), which libraries read when they load; graphql-js, for one, then skips checks
// meant for development.
process.env.NODE_ENV = 'production';
