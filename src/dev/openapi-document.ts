/**
 * Prints the API's OpenAPI document (the one `GET /v1/openapi.json` serves) to stdout, without starting
 * anything: the routers are mounted on an app whose Temporal client is never called, which records their
 * operations (src/api/operations.ts), and src/api/openapi.ts builds the document from them. Used by the
 * SDK generators (`npm run sdk:generate`, sdk/README.md) and the contract linters.
 *
 *   node dist/src/dev/openapi-document.js [serverUrl] > sdk/openapi.json
 */
import type { Client } from '@temporalio/client';
import { createApp } from '../api/app';
import { openApiDocument } from '../api/openapi';
import { loadConfig, setConfig } from '../config';

setConfig(loadConfig({ ...process.env, PORT: '0' }));
createApp({ temporal: {} as Client });
process.stdout.write(JSON.stringify(openApiDocument(process.argv[2] ?? 'http://localhost:3000'), null, 2) + '\n');
