/**
 * `node dist/src/cli/openapi.js [FILE]`: writes the API's OpenAPI document (what `GET /v1/openapi.json`
 * serves, its server `http://localhost:3000`, the address of `npm start`) to FILE, else to stdout. Builds
 * the app's routers to collect their operations (src/api/openapi.ts) without starting anything: no store,
 * no Temporal, no port. `npm run lint:openapi` lints the file with redocly and spectral.
 */
import fs from 'node:fs';
import type { Client } from '@temporalio/client';
import { createApp } from '../api/app';
import { openApiDocument } from '../api/openapi';

createApp({ temporal: {} as Client });
const text = JSON.stringify(openApiDocument(), null, 2) + '\n';
const file = process.argv[2];
if (file) fs.writeFileSync(file, text);
else process.stdout.write(text);
