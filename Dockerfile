# The API image: Node 20, production dependencies plus tsx (a runtime dependency).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY tsconfig.json ./
COPY src ./src
COPY scripts ./scripts
COPY index-mappings ./index-mappings
USER node
EXPOSE 3000
CMD ["npx", "tsx", "src/server.ts"]
