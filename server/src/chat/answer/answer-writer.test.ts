import { newId } from "../../platform/ids";
import { startTestServer, type TestServer } from "../../testing/app";
import type { AnswerEvent } from "../answer-stream";
import { Message, type MessageReference } from "../message.entity";
import type { ChatActor } from "../conversation.service";
import { actorOf, chatUser, createAssistant, type ChatUser } from "../testing/support";
import { AnswerWriter } from "./answer-writer";

/**
 * The writer's events keep their order when the model is asked while the references are still being written: its
 * text waits behind them, and the row never holds text that no event has carried.
 */

let server: TestServer;
let user: ChatUser;
let owner: ChatActor;

beforeAll(async () => {
  server = await startTestServer();
  user = await chatUser(server);
  owner = await actorOf(server, user);
}, 60_000);

afterAll(() => server?.close());

/** A conversation with an answer row waiting to be written, as `ask` leaves it. */
async function waitingAnswer(): Promise<string> {
  const assistant = await createAssistant(server, user);
  const conversation = await server.services.conversations.create(owner, assistant.id, { name: "writer" });
  const id = newId();
  await server.platform.db.getRepository(Message).insert({ id, conversationId: conversation.id, position: 1, role: "assistant", content: "", status: "searching", seq: 0 });
  return id;
}

const REFERENCE: MessageReference = { total: 1, chunks: [], doc_aggs: [{ doc_name: "ferry.txt", doc_id: "d1", count: 1 }] };

test("text sent while the references are being written goes out after their event, in one event", async () => {
  const answerId = await waitingAnswer();
  const writer = new AnswerWriter(server.platform);
  const events: AnswerEvent[] = [];
  const state = writer.begin(answerId, () => undefined, (event) => events.push(event));
  try {
    const referenced = writer.reference(state, REFERENCE);
    writer.delta(state, "The ferry ");
    // The end of this turn would publish it, were it not waiting for the references.
    await new Promise((resolve) => setImmediate(resolve));
    writer.delta(state, "leaves at dawn.");
    await referenced;
    await writer.finish(state, { status: "done", content: "The ferry leaves at dawn.", reference: REFERENCE });
    expect(events.map((e) => [e.seq, e.reference && e.status === "streaming" ? "reference" : (e.delta ?? e.status)])).toEqual([
      [1, "reference"],
      [2, "The ferry leaves at dawn."],
      [3, "done"],
    ]);
    const [row] = await server.platform.db.query(`SELECT seq, content, status FROM chat_message WHERE id = $1`, [answerId]);
    expect(row).toEqual({ seq: 3, content: "The ferry leaves at dawn.", status: "done" });
  } finally {
    writer.close();
  }
});
