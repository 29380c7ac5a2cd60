/**
 * Registers every model with mongoose (importing a model file registers it), so that `connectStore`
 * creates all indexes whichever entry point runs.
 */
import './orgs';
import './agents';
import './calls';
import './events';
import './idempotency';
import './webhooks';
import './knowledge';
import './contacts';
import './conversations';
import './connectors';
import './usage';
import './forms';
import './bulk-calls';
import './rate-limits';
import './widget';
