/**
 * LiveKit's server SDK (`livekit-server-sdk`) from the configuration (LIVEKIT_URL, LIVEKIT_API_KEY,
 * LIVEKIT_API_SECRET): the room service (delete a room) and access tokens to join a room. The media side
 * (`@livekit/rtc-node`) stays in src/activities/voice-room.ts. https://docs.livekit.io/home/server/
 */
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';
import { config } from '../config';

/** LiveKit's server API URL for a client URL: `wss://` → `https://`, `ws://` → `http://`. */
export const livekitHttpUrl = (url: string) => url.replace(/^ws(s?):\/\//, 'http$1://');

/** The room service client (`RoomService` Twirp API), or null when LiveKit is not configured. */
export function roomService(): RoomServiceClient | null {
  const cfg = config();
  if (!cfg.livekitUrl || !cfg.livekitApiKey || !cfg.livekitApiSecret) return null;
  return new RoomServiceClient(livekitHttpUrl(cfg.livekitUrl), cfg.livekitApiKey, cfg.livekitApiSecret);
}

/** Who joins which room, for how long: the grants of {@link roomToken}. */
export interface RoomTokenRequest {
  /** The participant's identity in the room (unique per room). */
  identity: string;
  /** Display name; defaults to none. */
  name?: string;
  /** Lifetime: seconds, or a duration string such as `'6h'`. */
  ttl: number | string;
  /** The room the token admits to. */
  room: string;
  /** True for the assistant's own participant (LiveKit's `agent` grant). */
  agent?: boolean;
}

/**
 * A signed access token (JWT) that joins `room` with publish and subscribe rights, signed with
 * LIVEKIT_API_KEY / LIVEKIT_API_SECRET. https://docs.livekit.io/home/get-started/authentication/
 * @throws Error when LiveKit's key or secret is not configured
 */
export async function roomToken(req: RoomTokenRequest): Promise<string> {
  const cfg = config();
  if (!cfg.livekitApiKey || !cfg.livekitApiSecret) throw new Error('LiveKit is not configured (LIVEKIT_API_KEY).');
  const at = new AccessToken(cfg.livekitApiKey, cfg.livekitApiSecret, {
    identity: req.identity,
    ...(req.name === undefined ? {} : { name: req.name }),
    ttl: req.ttl,
  });
  at.addGrant({
    roomJoin: true,
    room: req.room,
    canPublish: true,
    canSubscribe: true,
    ...(req.agent ? { agent: true } : {}),
  });
  return at.toJwt();
}
