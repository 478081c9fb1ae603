// The REST client's side of bench:flows: asks an agent (POST /api/v1/agents/{id}/completions, streamed) or a
// chat assistant (POST /api/v1/chats/{id}/completions) and reads RAGFlow's SSE frames as they come. Imported
// by flows.mjs for questions asked one at a time; forked by it as a child process for the concurrent runs, so
// that hundreds of clients do not share Cairn's event loop.

/** Reads an SSE body frame by frame (`data:…\n\n`), calling `onFrame(text after "data:")`. */
async function readFrames(response, onFrame) {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const bytes of response.body) {
    buffer += decoder.decode(bytes, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (frame.startsWith("data:")) onFrame(frame.slice(5));
    }
  }
}

/**
 * One streamed completion. Resolves with the time to the first text, the text the deltas built, and the
 * frames' events in order (`message` runs collapsed), for the caller to check.
 */
export async function streamCompletion({ url, key, path, body }) {
  const started = performance.now();
  const result = { firstText: null, text: "", events: [], done: false, afterDone: 0, error: null, durationMs: null, status: null };
  try {
    const response = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ ...body, stream: true }),
    });
    result.status = response.status;
    await readFrames(response, (text) => {
      if (result.done) {
        result.afterDone++;
        return;
      }
      if (text === "[DONE]") {
        result.done = true;
        return;
      }
      const frame = JSON.parse(text);
      // An agent's frame names its event; a chat's carries `data.answer` (a delta) until `data: true`.
      const event = frame.event ?? (frame.data === true ? "end" : "message");
      const delta = frame.event ? (event === "message" ? frame.data.content : "") : typeof frame.data === "object" ? (frame.data.answer ?? "") : "";
      if (frame.code && frame.code !== 0) result.error = frame.message;
      if (delta) {
        result.text += delta;
        if (result.firstText === null) result.firstText = performance.now() - started;
      }
      if (event === "node_finished") result.events.push(`node_finished:${frame.data.component_id}`);
      else if (event !== "message" || result.events.at(-1) !== "message") result.events.push(event);
      if (event === "end") result.done = true;
    });
  } catch (error) {
    result.error = String(error?.message ?? error);
  }
  result.durationMs = performance.now() - started;
  return result;
}

// The concurrent load: every job is one client that asks its turn again as soon as the last one ended, until the
// parent says stop (each client asks at least once). "inflight" tells the parent that every client has asked.
if (process.argv.includes("--child")) {
  process.once("disconnect", () => process.exit(1)); // the bench is gone: no clients left behind
  process.once("message", async ({ url, key, jobs }) => {
    let stopping = false;
    process.on("message", (message) => {
      if (message.type === "stop") stopping = true;
    });
    const results = [];
    let asked = 0;
    await Promise.all(
      jobs.map(async (job, client) => {
        for (let turn = 0; turn === 0 || !stopping; turn++) {
          const completion = streamCompletion({ url, key, path: job.path, body: { ...job.body, question: `${job.body.question} (turn ${turn})` } });
          if (turn === 0 && ++asked === jobs.length) process.send({ type: "inflight" });
          results.push({ client, turn, ...(await completion) });
        }
      }),
    );
    process.send({ type: "results", results }, () => process.exit(0));
  });
}
