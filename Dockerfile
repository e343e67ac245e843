# gw gateway image. Three stages: production dependencies (native modules are compiled here, so
# the runtime image carries no compiler), the TypeScript build, and the runtime.
#   docker build -t gw .
#   docker run -p 8787:8787 -e GW_BOOTSTRAP_API_KEY=... gw
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary matches the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force

FROM deps AS build
RUN npm ci
COPY tsconfig.json ./
COPY core ./core
COPY host ./host
COPY plugins ./plugins
COPY providers ./providers
COPY guardrails ./guardrails
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8787 \
    GW_DATA_DIR=/var/lib/gw
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The embedded store and uploaded files live here when no GW_DATABASE_URL is set.
RUN mkdir -p /var/lib/gw && chown node:node /var/lib/gw
VOLUME ["/var/lib/gw"]
USER node
EXPOSE 8787
# Slim images have no curl: node's own fetch asks /health (503 while a backing store is down).
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/health').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))"]
# node directly, not npm start (which would build first): npm would also not pass SIGTERM on. The
# bundled build (host/bundle.ts) starts in about half the time of dist/host/main.js.
CMD ["node", "--enable-source-maps", "dist/bundle/host/main.js"]
