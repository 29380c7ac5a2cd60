/**
 * The Express application: `/healthz`, `/readyz`, and the `/v1` API (bearer keys, JSON, Stripe-style
 * errors, lists and idempotency). Stateless: any number of API processes may serve the same store and
 * Temporal cluster (DESIGN.md section 2).
 */
import express, { Router } from 'express';
import type { Client } from '@temporalio/client';
import { config } from '../config';
import { authenticate, errorHandler, jsonBody, jsonContentType, requestContext, unknownRoute } from './middleware';
import { declaredRoute, observeRequests, operatorRouter } from './observe';
import { traceRequests } from './tracing';
import { accountRouter } from './account';
import { telephonyRouter } from './telephony';
import { agentVersionsRouter } from './agent-versions'; // before agents.ts: the document's schema order
import { agentsRouter } from './agents';
import { squadsRouter } from './squads';
import { squadVersionsRouter } from './squad-versions';
// Before bulk-calls.ts, in this order: the OpenAPI document lists schemas as their modules load.
import { formsRouter } from './forms';
import { messagesRouter } from './messages';
import { widgetAssetsRouter, widgetRouter } from './widget';
import { callsRouter } from './calls';
import { bulkCallBodyParser, bulkCallsRouter } from './bulk-calls';
import { contactsRouter, recordsRouter } from './contacts';
import { doNotCallBodyParser, doNotCallRouter } from './do-not-call';
import { erasuresRouter } from './erasures';
import { conversationsRouter } from './conversations';
import { availablePhoneNumbersRouter } from './available-phone-numbers';
import { callerIdsRouter } from './caller-ids';
import { phoneNumbersRouter } from './phone-numbers';
import { sipTrunksRouter } from './sip-trunks';
import { messageTemplatesRouter } from './message-templates';
import { testHelpersRouter } from './test-helpers';
import { toolsRouter } from './tools';
import { connectorInstallationsRouter } from './connector-installations';
import { connectorsRouter, connectorVersionBodyParser, publisherKeysRouter } from './connectors';
import { eventsRouter } from './events';
import { isKnowledgeUpload, knowledgeBody, knowledgeRouter } from './knowledge';
import { twilioRouter } from './twilio';
import { openaiWebhooksRouter } from './openai-webhooks';
import { twilioMessagingRouter } from './twilio/messaging';
import { twilioCallbackGuard } from './twilio/requests';
import { callRecordingsRouter, recordingAudioRouter } from './recordings';
import { noQueryOnWrites } from './validation';
import { openApiRouter } from './openapi';
import { usageRouter } from './usage';
import { webhookEndpointsRouter } from './webhooks';
import { analysesRouter } from './analyses';
import { testSuitesRouter } from './test-suites';
import { replaysRouter } from './replays';
import { auditEventsRouter, auditRefusedSession, auditRequests } from './audit';
import { consoleRouter, consoleSessionAuth } from './console';
import { codecRouter } from './codec';

export interface AppDeps {
  /** Temporal client that starts, signals and updates workflows. */
  temporal: Client;
}

/** Builds the Express app. Does not listen; see src/api/main.ts and src/dev/start.ts. */
export function createApp(deps: AppDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Behind a load balancer (TRUST_PROXY): `req.ip` from X-Forwarded-For, as the widget's per-IP limits count.
  app.set('trust proxy', config().trustProxy);
  const traced = traceRequests(declaredRoute); // tracing on only (src/platform/tracing.ts)
  if (traced) app.use(traced);
  app.use(observeRequests);
  app.use(requestContext);

  app.use(operatorRouter(deps.temporal)); // `GET /healthz`, `/readyz`, `/metrics`: no key needed
  // Twilio's callbacks: the form parser and signature check first, then the messaging and call callbacks.
  app.use('/twilio', twilioCallbackGuard);
  app.use('/twilio/messaging', twilioMessagingRouter(deps.temporal));
  app.use('/twilio', twilioRouter(deps.temporal));
  app.use('/openai', openaiWebhooksRouter(deps.temporal)); // OpenAI's signed callbacks: no key
  app.use(openApiRouter()); // `GET /v1/openapi.json` and `/docs`: no key needed
  app.use(widgetAssetsRouter()); // `GET /widget.js` and the demo page `/widget/demo`
  app.use(recordingAudioRouter()); // `GET /v1/recordings/{id}/audio`: a signed link, no key
  app.use('/console/api', auditRequests); // every console action in the audit log, before its own parsers
  app.use(consoleRouter()); // `/console`: the staff console's app and its own endpoints
  // `POST /codec/decode`, `/codec/encode`: the operator token; with CODEC_PORT, only on the operator listener.
  if (config().codecPort === undefined) app.use(codecRouter());

  const v1 = Router();
  // 415 before any parser reads a body that is not JSON; a knowledge file may come as multipart/form-data.
  v1.use((req, res, next) => (isKnowledgeUpload(req) ? next() : jsonContentType(req, res, next)));
  v1.use('/widget', jsonBody, widgetRouter(deps.temporal)); // its own authentication: publishable key, session token
  // Who is asking, before a byte of any other body is read: a request without a key or session is refused
  // 401 without being buffered or parsed (the large bodies below may be up to 20 MB).
  v1.use(consoleSessionAuth); // a console session's cookie instead of a key, then the key check
  v1.use(auditRefusedSession); // a session write refused by its CSRF check is audited too
  v1.use(authenticate);
  v1.use('/knowledge', knowledgeBody); // documents up to 500,000 characters: a larger body limit
  v1.use(connectorVersionBodyParser()); // the bundle upload's own body limit, before the 1 MB parser
  v1.use(bulkCallBodyParser()); // 10,000 contacts: the campaign route's own body limit, before the 1 MB parser
  v1.use(doNotCallBodyParser()); // 100,000 numbers: the do-not-call import's own body limit
  v1.use(jsonBody);
  v1.use(auditRequests); // an audit entry per write and per recording/transcript read
  v1.use(noQueryOnWrites);
  v1.use('/agents', agentsRouter(deps.temporal));
  v1.use('/agents', agentVersionsRouter()); // `/v1/agents/{id}/versions…`
  v1.use('/squads', squadsRouter());
  v1.use('/squads', squadVersionsRouter()); // `/v1/squads/{id}/versions…`
  v1.use('/tools', toolsRouter());
  v1.use('/calls', callsRouter(deps.temporal));
  v1.use('/calls', callRecordingsRouter(deps.temporal));
  v1.use('/knowledge', knowledgeRouter(deps.temporal));
  v1.use('/contacts', contactsRouter(deps.temporal));
  v1.use('/erasures', erasuresRouter());
  v1.use('/records', recordsRouter());
  v1.use('/do_not_call', doNotCallRouter());
  v1.use('/messages', messagesRouter(deps.temporal));
  v1.use('/conversations', conversationsRouter(deps.temporal));
  v1.use('/phone_numbers', phoneNumbersRouter(deps.temporal));
  v1.use('/available_phone_numbers', availablePhoneNumbersRouter());
  v1.use('/caller_ids', callerIdsRouter());
  v1.use('/sip_trunks', sipTrunksRouter());
  v1.use('/message_templates', messageTemplatesRouter());
  v1.use('/test_helpers', testHelpersRouter(deps.temporal));
  v1.use('/connectors', connectorsRouter(deps.temporal));
  v1.use('/publisher_keys', publisherKeysRouter());
  v1.use('/connector_installations', connectorInstallationsRouter());
  v1.use('/bulk-calls', bulkCallsRouter(deps.temporal));
  v1.use('/forms', formsRouter());
  v1.use('/events', eventsRouter(deps.temporal));
  v1.use('/webhook-endpoints', webhookEndpointsRouter());
  v1.use('/usage', usageRouter());
  v1.use('/account', accountRouter());
  v1.use('/telephony', telephonyRouter());
  v1.use('/audit_events', auditEventsRouter());
  v1.use(analysesRouter(deps.temporal)); // `/calls/{id}/analyze`, `/conversations/{id}/analyses`…
  v1.use(testSuitesRouter(deps.temporal)); // `/agents/{id}/test_suites`, `/test_suites`, `/test_suite_runs`
  v1.use(replaysRouter(deps.temporal)); // `/agents/{id}/replays`
  app.use('/v1', v1);

  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
