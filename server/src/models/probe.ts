import type { ModelClients, ModelType } from "./model-types";

// A 1×1 transparent PNG and 0.1 s of 16 kHz silence: the smallest inputs a vision or speech model accepts.
const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");

function silentWav(seconds = 0.1, sampleRate = 16000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + samples * 2, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(samples * 2, 40);
  return Buffer.concat([header, Buffer.alloc(samples * 2)]);
}

/** "Test connection": the tiniest real request of each type; it throws what the provider answered when it fails. */
export async function probeModel<T extends ModelType>(type: T, client: ModelClients[T]): Promise<void> {
  const probes: { [K in ModelType]: (c: ModelClients[K]) => Promise<unknown> } = {
    chat: async (c) => {
      for await (const event of c.stream([{ role: "user", content: "Hi" }], { maxTokens: 8 })) {
        if (event.type === "delta") break;
      }
    },
    embedding: (c) => c.embed(["test"]),
    rerank: (c) => c.rerank("test", ["test"]),
    img2txt: (c) => c.describe({ data: TINY_PNG, mimeType: "image/png" }),
    sequence2txt: (c) => c.transcribe({ data: silentWav(), mimeType: "audio/wav", fileName: "probe.wav" }),
    tts: async (c) => {
      const { audio } = await c.synthesize("Hi");
      for await (const chunk of audio) if (chunk.length > 0) break;
    },
  };
  await (probes[type] as (c: ModelClients[T]) => Promise<unknown>)(client);
}
