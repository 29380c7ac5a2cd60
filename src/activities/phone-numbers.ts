/**
 * The activity of a live number's provisioning workflow (src/workflows/phone-numbers.ts): `provisionNumber`
 * looks the number up in the organization's Twilio account and imports it, or buys it, then stores it
 * (src/services/number-provisioning.ts has the rules; a retry looks up before it buys again).
 */
export { provisionNumber } from '../services/number-provisioning';
