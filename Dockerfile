# syntax=docker/dockerfile:1
#
# One image for both production processes of the service (DESIGN.md section 2):
#   API:    node dist/src/api/main.js      (the default command)
#   worker: node dist/src/worker/main.js
# Both need MONGODB_URI and TEMPORAL_ADDRESS; docker-compose.yml sets them. The embedded Temporal dev
# server and FerretDB (Go programs) belong to `npm start` only, so no Go toolchain is installed here.

# Node.js 24, an LTS line (security fixes until 2028-04-30); CI runs `npm start` under the same major
# (npm run smoke:lts). The service also runs on Node 22 and 20.19+ (package.json `engines`).
ARG NODE_IMAGE=node:24-bookworm-slim

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
# The commit built (`svc_build_info{commit}` on /metrics): `docker build --build-arg SVC_COMMIT=$(git rev-parse HEAD)`;
# docker-compose.yml passes it from the environment.
ARG SVC_COMMIT=unknown
ENV NODE_ENV=production SVC_COMMIT=${SVC_COMMIT}
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
