import { EventStreamCodec } from "@smithy/eventstream-codec";

const codec = new EventStreamCodec(
  (bytes) => Buffer.from(bytes).toString("utf8"),
  (text) => new Uint8Array(Buffer.from(text, "utf8")),
);

/** One frame of the AWS event-stream encoding (prelude, headers, payload, CRCs), as Bedrock sends it. */
export function eventStreamFrame(eventType: string, payload: unknown, messageType: "event" | "exception" = "event"): Buffer {
  const typeHeader = messageType === "event" ? ":event-type" : ":exception-type";
  return Buffer.from(
    codec.encode({
      headers: {
        [typeHeader]: { type: "string", value: eventType },
        ":content-type": { type: "string", value: "application/json" },
        ":message-type": { type: "string", value: messageType },
      },
      body: Buffer.from(JSON.stringify(payload)),
    }),
  );
}
