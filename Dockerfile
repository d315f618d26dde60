# The API server with the built web client, for docker-compose.yml, on Node 24 (the active LTS).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json turbo.json ./
COPY server/package.json server/
COPY client/package.json client/
COPY sdk/package.json sdk/
COPY mcp/package.json mcp/
RUN npm ci --no-audit --no-fund
COPY . .
ENV TURBO_TELEMETRY_DISABLED=1
RUN npm run build && npm prune --omit=dev

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/server/package.json ./server/
COPY --from=build /app/server/dist ./server/dist
COPY --from=build /app/client/dist ./client/dist
EXPOSE 4000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD node -e "fetch('http://127.0.0.1:4000/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# A floor under the young generation, which V8 otherwise shrinks in a lull (docs/operating.md, memory).
CMD ["node", "--min-semi-space-size=16", "server/dist/index.js"]
