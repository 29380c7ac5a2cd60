/**
 * The connectors domain's contract: the connector id rule, the bundle limits and the event name, shared
 * by the API (src/api/connectors.ts), the bundle checks (src/services/connectors.ts) and the tests.
 * Bundle-safe: imports nothing.
 */

/** Event emitted once per published version; `data.object` is the `connector_version`. */
export const VERSION_PUBLISHED_EVENT = 'connector.version_published';

/** 1 MB as this domain counts it (2^20 bytes). */
export const MB = 1024 * 1024;
/** Largest bundle, in decoded bytes (the base64 in the request is about 4/3 of it). */
export const MAX_BUNDLE_BYTES = 10 * MB;
/** Largest tar once a gzip bundle is decompressed (a gzip bomb stops here). */
export const MAX_UNCOMPRESSED_BYTES = 50 * MB;
/** Most entries (files and directories) a bundle may hold. */
export const MAX_BUNDLE_ENTRIES = 1000;
/** Largest `connector.json`. */
export const MAX_MANIFEST_BYTES = 64 * 1024;
/** Most active (unrevoked, unexpired) publisher keys per organization and mode. */
export const MAX_ACTIVE_PUBLISHER_KEYS = 10;

/**
 * A connector id: lowercase reverse-DNS with at least two labels (`com.example.crm`). Each label is a
 * DNS label (RFC 1035 / RFC 1123 "LDH"): 1–63 of `a-z`, `0-9`, `-`, not starting or ending with `-`;
 * the whole id at most 253 characters (a DNS name's limit).
 */
export function isConnectorId(id: unknown): id is string {
  if (typeof id !== 'string' || id.length > 253) return false;
  const labels = id.split('.');
  return labels.length >= 2 && labels.every((l) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(l));
}

/** The id rule in words, for error messages and the README. */
export const CONNECTOR_ID_RULE =
  'a lowercase reverse-DNS name with at least two labels, like com.example.crm (labels of a-z, 0-9 and -, not starting or ending with -, at most 63 characters each; 253 in all)';
