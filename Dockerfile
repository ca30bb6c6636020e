# linkpix for operators (docs/operations.md, "Containers"). Not built in CI here: the machine
# has no image registry. Node 24, the supported LTS CI also tests on.

# Compiles src/ to dist/ with the dev dependencies (TypeScript). No install scripts: tsc needs
# no native addon.
FROM node:24-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
# The workspaces' manifests first: npm ci links packages/sdk and packages/cli into node_modules.
COPY packages/sdk/package.json packages/sdk/
COPY packages/cli/package.json packages/cli/
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-assets.mjs scripts/
COPY src src
COPY packages packages
RUN npm run build

# The runtime dependencies alone, compiled here where the toolchain is, so the runtime image
# needs none. better-sqlite3 is rebuilt against Node 24.18.1's headers whatever npm fetched:
# built against 24.19's or later, its node::ObjectWrap registers a cleanup hook that aborts the
# process when the garbage collector frees a statement (docs/operations.md, "Node versions").
# One ABI per major, so the addon loads on every Node 24. node-gyp fetches those headers.
FROM node:24-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/sdk/package.json packages/sdk/
COPY packages/cli/package.json packages/cli/
RUN npm ci --omit=dev --no-audit --no-fund \
  && cd node_modules/better-sqlite3 \
  && node /usr/local/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js rebuild --release --target=24.18.1 \
  && node -e "new (require('better-sqlite3'))(':memory:').prepare('select 1').get()"

# The compiled server and CLI, their runtime dependencies, nothing else: no sources, no tsx.
FROM node:24-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0
WORKDIR /app
COPY --chown=node:node package.json package-lock.json ./
COPY --from=deps --chown=node:node /app/node_modules node_modules
COPY --from=build --chown=node:node /app/dist dist
# `linkpix users create …`: bin/linkpix.js runs dist/app/cli.js (no src/ here, so no build check);
# `linkpix shorten …` the people's CLI, over the SDK (node_modules/@linkpix links them here).
COPY --chown=node:node bin bin
COPY --from=build --chown=node:node /app/packages/sdk/package.json packages/sdk/
COPY --from=build --chown=node:node /app/packages/sdk/dist packages/sdk/dist
COPY --from=build --chown=node:node /app/packages/cli/package.json packages/cli/
COPY --from=build --chown=node:node /app/packages/cli/dist packages/cli/dist
RUN mkdir -p data && chown node:node data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# What `npm start` runs after its build, with the same flags (package.json).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "--v8-pool-size=1", "dist/app/main.js"]
