/**
 * OpenAI's audio API, faked on the fake LLM's loopback server (test/support/fake-llm.ts) so that the
 * real `openai` client of the voice-room activity talks to it over HTTP:
 * - `POST /v1/audio/transcriptions` (multipart, a WAV `file`): measures the utterance's pitch (zero
 *   crossings over its voiced 10 ms windows) and answers the phrase registered for the nearest tone
 *   (`phrases`, within ±30 Hz), '' when none is near. A scripted visitor "says" a phrase by sending its
 *   tone through a real LiveKit room, so the test checks the audio path end to end, codec included.
 * - `POST /v1/audio/speech` (`response_format: pcm`): a `speechHz` tone, 24 kHz 16-bit mono, 25 ms per
 *   character of `input` (at most `maxSpeechMs`), sent in several chunks like a streamed answer.
 * Every request is kept (`transcriptions`, `speeches`) for assertions.
 */
import type http from 'node:http';

export interface FakeAudio {
  /** Tone (Hz) → the text a transcription of it answers. */
  phrases: Map<number, string>;
  speechHz: number;
  maxSpeechMs: number;
  transcriptions: { model: string; hz: number; durationMs: number; text: string; atMs: number }[];
  speeches: { model: string; voice: string; input: string; response_format: string; atMs: number }[];
}

export function fakeAudio(): FakeAudio {
  return { phrases: new Map(), speechHz: 880, maxSpeechMs: 1_500, transcriptions: [], speeches: [] };
}

/** Handles `/v1/audio/*`; returns false for any other path (the chat fake takes it). */
export function handleAudio(audio: FakeAudio, req: http.IncomingMessage, res: http.ServerResponse): boolean {
  if (!req.url?.startsWith('/v1/audio/')) return false;
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    void (async () => {
      const raw = Buffer.concat(chunks);
      if (req.url === '/v1/audio/transcriptions') {
        const form = await new Response(raw, {
          headers: { 'content-type': String(req.headers['content-type']) },
        }).formData();
        const file = form.get('file') as File;
        const wav = Buffer.from(await file.arrayBuffer());
        const rate = wav.readUInt32LE(24);
        const pcm = new Int16Array(wav.length > 44 ? (wav.length - 44) / 2 : 0);
        for (let i = 0; i < pcm.length; i++) pcm[i] = wav.readInt16LE(44 + i * 2);
        const hz = pitchHz(pcm, rate);
        let text = '';
        let best = 31;
        for (const [tone, phrase] of audio.phrases)
          if (Math.abs(tone - hz) < best) ((best = Math.abs(tone - hz)), (text = phrase));
        audio.transcriptions.push({
          model: String(form.get('model')),
          hz,
          durationMs: Math.round((pcm.length / rate) * 1000),
          text,
          atMs: Date.now(),
        });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ text }));
      } else if (req.url === '/v1/audio/speech') {
        const body = JSON.parse(raw.toString('utf8'));
        audio.speeches.push({ ...body, atMs: Date.now() });
        const pcm = tone(audio.speechHz, Math.min(audio.maxSpeechMs, 25 * String(body.input).length), 24_000);
        const bytes = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        const step = 4_801; // odd: chunks that split samples, as a network does
        for (let at = 0; at < bytes.length; at += step) {
          res.write(bytes.subarray(at, at + step));
          await new Promise((r) => setTimeout(r, 5));
        }
        res.end();
      } else res.writeHead(404).end();
    })().catch((err) => res.writeHead(500).end(String(err)));
  });
  return true;
}

/** A sine tone: `ms` of `hz` at `rate`, amplitude 8,000 (-12 dBFS). */
export function tone(hz: number, ms: number, rate: number): Int16Array {
  const out = new Int16Array(Math.round((rate * ms) / 1000));
  for (let i = 0; i < out.length; i++) out[i] = Math.round(8000 * Math.sin((2 * Math.PI * hz * i) / rate));
  return out;
}

/** The pitch of the voiced part of `pcm` (Hz): zero crossings of its 10 ms windows louder than silence. */
export function pitchHz(pcm: Int16Array, rate: number): number {
  const window = Math.round(rate / 100);
  let crossings = 0;
  let voiced = 0;
  for (let at = 0; at + window <= pcm.length; at += window) {
    let sum = 0;
    for (let i = at; i < at + window; i++) sum += pcm[i] * pcm[i];
    if (Math.sqrt(sum / window) < 500) continue;
    voiced += window;
    for (let i = at + 1; i < at + window; i++) if (pcm[i] >= 0 !== pcm[i - 1] >= 0) crossings++;
  }
  return voiced ? Math.round(crossings / 2 / (voiced / rate)) : 0;
}
