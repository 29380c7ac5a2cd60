/**
 * Phone numbers as the API takes them: E.164 (ITU-T E.164, `+` and up to 15 digits), checked against
 * libphonenumber-js's full metadata, so a well-formed number that no numbering plan assigns is refused.
 */
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** True when `v` is a valid phone number written exactly in E.164 form (`+14155550123`). */
export function isE164(v: string): boolean {
  if (!/^\+[1-9]\d{1,14}$/.test(v)) return false;
  const parsed = parsePhoneNumberFromString(v);
  return Boolean(parsed && parsed.number === v && parsed.isValid());
}
