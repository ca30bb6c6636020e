# linkpix for operators (docs/operations.md, "Containers"). Not built in CI here: the machine
# has no image registry. Node 20, as CI's main run.

# Compiles src/ to dist/ with the dev dependencies (TypeScript).
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/copy-assets.mjs scripts/
COPY src src
RUN npm run build

# The runtime dependencies alone; better-sqlite3 and argon2 may compile here, where the
# toolchain is, so the runtime image needs none.
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=8080 HOST=0.0.0.0
WORKDIR /app
COPY --chown=node:node package.json package-lock.json ./
COPY --from=deps --chown=node:node /app/node_modules node_modules
COPY --from=build --chown=node:node /app/dist dist
# The CLI (`linkpix users create …`) runs the TypeScript sources through tsx.
COPY --chown=node:node bin bin
COPY --chown=node:node src src
RUN mkdir -p data && chown node:node data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# What `npm start` runs after its build, with the same flags (package.json).
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "--v8-pool-size=1", "dist/app/main.js"]
