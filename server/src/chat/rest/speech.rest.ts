import path from "node:path";
import multer from "multer";
import { jsonResult, RETURN_CODES } from "../../rest/envelope";
import { PythonException } from "../../rest/python-repr";
import { authenticatedRoute, type AuthenticatedRestContext, type RestRoute } from "../../rest/rest-route";
import { answering, refuse } from "../../knowledge/rest/scope";
import { DomainError, messageForClient } from "../../platform/errors";
import { spokenText, ttsModelOf } from "../speech";
import { openEventStream, writeFrame } from "../../platform/runs/sse";

/**
 * The service API's speech endpoints (contract §11): `POST /api/v1/tts` reads a text aloud with the
 * tenant's TTS model, `POST /api/v1/sequence2txt` transcribes an uploaded recording with its speech model.
 */

/** RAGFlow's accepted recordings, by extension. */
const AUDIO_EXTENSIONS = [".aac", ".flac", ".m4a", ".mp3", ".ogg", ".opus", ".wav", ".webm", ".wma"];
/** OpenAI's transcription limit; speech models take no larger recordings. */
const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

const AUDIO_TYPES: Record<string, string> = { ".mp3": "audio/mpeg", ".m4a": "audio/mp4", ".wav": "audio/wav", ".webm": "audio/webm", ".ogg": "audio/ogg", ".opus": "audio/ogg" };

async function tts({ services, principal, body, res }: AuthenticatedRestContext): Promise<unknown> {
  if (!("text" in body)) throw new PythonException("KeyError", "text");
  const model = await ttsModelOf(services.models, principal.tenantId);
  if (!model) throw refuse("No default TTS model is set");
  const client = await services.models.client(principal.tenantId, "tts", model);
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  const speech = await client.synthesize(spokenText(String(body.text ?? "")), { signal: controller.signal });
  res.status(200).setHeader("Content-Type", speech.mimeType);
  res.setHeader("Cache-Control", "no-cache");
  res.setHeader("X-Accel-Buffering", "no");
  for await (const chunk of speech.audio) {
    if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
  return undefined;
}

/** The `file` part and the form fields; the recording is held in memory, within the limit. */
async function receiveRecording({ req, res }: AuthenticatedRestContext): Promise<{ file: Express.Multer.File | undefined; fields: Record<string, unknown> }> {
  const parser = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_AUDIO_BYTES, fields: 20, fieldSize: 64 * 1024 } }).any();
  try {
    await new Promise<void>((resolve, reject) => parser(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
  } catch (error) {
    if (error instanceof multer.MulterError && error.code === "LIMIT_FILE_SIZE") throw new DomainError("PAYLOAD_TOO_LARGE", "httpStatus.413");
    return { file: undefined, fields: {} };
  }
  const files = (req.files ?? []) as Express.Multer.File[];
  return { file: files.find((f) => f.fieldname === "file"), fields: (req.body ?? {}) as Record<string, unknown> };
}

async function sequence2txt(context: AuthenticatedRestContext): Promise<unknown> {
  const { services, principal, res } = context;
  const { file, fields } = await receiveRecording(context);
  const stream = String(fields.stream ?? "false").toLowerCase() === "true";
  if (!file) throw refuse("Missing 'file' in multipart form-data");
  const suffix = path.extname(file.originalname ?? "").toLowerCase();
  if (!AUDIO_EXTENSIONS.includes(suffix)) throw refuse(`Unsupported audio format: ${suffix}. Allowed: ${AUDIO_EXTENSIONS.join(", ")}`);
  const model = (await services.models.defaults(principal.tenantId)).sequence2txt;
  if (!model) throw refuse("No default ASR model is set");
  const client = await services.models.client(principal.tenantId, "sequence2txt", model);
  const audio = { data: file.buffer, mimeType: AUDIO_TYPES[suffix] ?? `audio/${suffix.slice(1)}`, fileName: file.originalname };
  if (!stream) return jsonResult(RETURN_CODES.SUCCESS, "success", { text: (await client.transcribe(audio)).text });
  // Cairn's speech models answer a recording whole: the stream carries RAGFlow's final event only.
  openEventStream(res);
  try {
    writeFrame(res, { event: "final", text: (await client.transcribe(audio)).text });
  } catch (error) {
    writeFrame(res, { event: "error", text: messageForClient("rest sequence2txt", error) });
  }
  res.end();
  return undefined;
}

export const speechRestRoutes: RestRoute[] = [
  authenticatedRoute("POST", "/api/v1/tts", "apiKey", (context) => answering(() => tts(context))),
  { ...authenticatedRoute("POST", "/api/v1/sequence2txt", "apiKey", (context) => answering(() => sequence2txt(context))), rawBody: true },
];

