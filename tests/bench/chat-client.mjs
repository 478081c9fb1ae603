// The chat page's side of bench:chat: ask over GraphQL (HTTP), then follow the answer on the answerStream
// subscription (graphql-ws). Imported by chat.mjs for questions asked one at a time; forked by it as a child
// process for the concurrent streams, so that hundreds of clients do not share Cairn's event loop.
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const ASK = `mutation Ask($conversationId: ID!, $question: String!) { ask(conversationId: $conversationId, question: $question) { answer { id } } }`;
const STREAM = `subscription Stream($messageId: ID!) { answerStream(messageId: $messageId) { seq status delta content error } }`;

export function connect(wsUrl, token) {
  return createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${token}` }, retryAttempts: 0, lazy: false });
}

async function graphql(graphqlUrl, token, query, variables) {
  const response = await fetch(graphqlUrl, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json();
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

/**
 * Asks in a conversation and follows the answer. Resolves with
 * - `live`: the text the events built — the first event's snapshot, then the deltas;
 * - `final`: the whole content the final event carries (the answer as the client ends up showing it);
 * - the time to the first text, the ask mutation's round trip, and the number of catch-up events (a
 *   subscriber that falls behind gets what the row holds as one event covering several seq numbers);
 * - `tokenAt`: when each token of the paced model's answer ("t0 t1 …") first reached the client, in ms since
 *   the epoch (comparable with the model server's clock: one machine), whichever event brought it.
 */
export function askAndFollow({ graphqlUrl, token, client, conversationId, question }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const result = {
      sentAt: performance.timeOrigin + started,
      askMs: null,
      firstText: null,
      live: "",
      final: null,
      status: null,
      error: null,
      catchUps: 0,
      events: 0,
      seqs: [],
      answerId: null,
      durationMs: null,
      tokenAt: [],
    };
    let lastSeq = null;
    graphql(graphqlUrl, token, ASK, { conversationId, question })
      .then((data) => {
        result.askMs = performance.now() - started;
        result.answerId = data.ask.answer.id;
        client.subscribe(
          { query: STREAM, variables: { messageId: result.answerId } },
          {
            next: ({ data: payload, errors }) => {
              if (errors) result.error = JSON.stringify(errors);
              const event = payload?.answerStream;
              if (!event) return;
              const receivedAt = performance.timeOrigin + performance.now();
              for (const [, index] of (event.content ?? event.delta ?? "").matchAll(/\bt(\d+)\b/g)) result.tokenAt[Number(index)] ??= receivedAt;
              result.events++;
              if (result.seqs.length < 16) result.seqs.push(event.content !== null ? `s${event.seq}` : event.delta ? String(event.seq) : `${event.status}${event.seq}`);
              const snapshot = event.content !== null && event.content !== undefined;
              if (snapshot && lastSeq === null) result.live = event.content;
              else if (snapshot) result.final = event.content;
              else if (event.delta) {
                if (lastSeq !== null && event.seq !== lastSeq + 1) result.catchUps++;
                result.live += event.delta;
              }
              if (["done", "stopped", "failed"].includes(event.status) && result.final === null) result.final = snapshot ? event.content : result.live;
              if (lastSeq === null || event.seq > lastSeq) lastSeq = event.seq;
              if (result.firstText === null && (result.final ?? result.live).trim() !== "") result.firstText = performance.now() - started;
              result.status = event.status;
              if (event.error) result.error = event.error;
            },
            error: (e) => {
              result.error = String(e?.message ?? e?.reason ?? JSON.stringify(e));
              resolve(result);
            },
            complete: () => {
              result.durationMs = performance.now() - started;
              resolve(result);
            },
          },
        );
      })
      .catch((e) => {
        result.error = String(e.message ?? e);
        resolve(result);
      });
  });
}

// As a child process: one message {graphqlUrl, wsUrl, token, jobs: [{conversationId, question}]}; every job
// gets its own graphql-ws connection (a browser tab each); all connect first, then all ask at once.
if (process.argv.includes("--child") && process.send) {
  process.once("message", async ({ graphqlUrl, wsUrl, token, jobs }) => {
    const clients = jobs.map(() => connect(wsUrl, token));
    // lazy: false connects at once; wait until every connection is acknowledged.
    await Promise.all(clients.map((client) => new Promise((resolve) => {
      const off = client.on("connected", () => (off(), resolve()));
    })));
    process.send({ type: "connected" });
    const results = await Promise.all(jobs.map((job, i) => askAndFollow({ graphqlUrl, token, client: clients[i], ...job })));
    await Promise.all(clients.map((client) => client.dispose()));
    process.send({ type: "results", results }, () => process.exit(0));
  });
}
