# syntax=docker/dockerfile:1
#
# One image for both production processes of the service (DESIGN.md section 2):
#   API:    node dist/src/api/main.js      (the default command)
#   worker: node dist/src/worker/main.js
# Both need MONGODB_URI and TEMPORAL_ADDRESS; docker-compose.yml sets them. The embedded Temporal dev
# server and FerretDB (Go programs) belong to `npm start` only, so no Go toolchain is installed here.

ARG NODE_IMAGE=node:20-bookworm-slim

##### build: all dependencies, TypeScript -> dist/ #####
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# The rest of the context (.dockerignore keeps it to tsconfig.json, src/, test/, bench/, bin/):
# tsconfig.json compiles src/, test/ and bench/ together, so the build is the same as CI's.
COPY . .
RUN npm run build

##### runtime: production dependencies and the compiled service only #####
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# Only dist/src: dist/test and dist/bench need devDependencies (mocha, chai) and are never run here.
COPY --from=build /app/dist/src ./dist/src
# svcctl (`docker compose exec api node bin/svcctl.js ...`) requires ../dist/src/cli/svcctl.js.
COPY bin ./bin
USER node
EXPOSE 3000
CMD ["node", "dist/src/api/main.js"]
