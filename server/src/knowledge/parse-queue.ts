import type { Platform } from "../platform";
import { snapshotThenLive } from "../platform/runs/event-stream";
import { Document, RUN } from "./document.entity";
import { progressEventOf, progressTopic, type DocumentProgressEvent } from "./document-events";

/**
 * Where documents stand in the line of parse jobs. A document that is "parsing" (run 1) may still wait for a
 * worker: then it has a place in the queue, which the queue itself reports (jobs of every kind and tenant
 * share the line), and the interface says "Queued · 3rd in line" instead of "Parsing 0 %".
 */

/** The job id of a document's run in the queue: queueing the same run twice does nothing. */
export function parseJobId(documentId: string, runId: string): string {
  return `parse-${documentId}-${runId}`;
}

/** Each of these documents' place in line (1 = next to start); documents not waiting for a worker are absent. */
export async function queuePositions(platform: Platform, documents: Pick<Document, "id" | "run" | "runId">[]): Promise<Map<string, number>> {
  const waiting = documents.filter((d): d is typeof d & { runId: string } => d.run === RUN.running && d.runId !== null);
  if (waiting.length === 0) return new Map();
  const positions = await platform.queue.waitingPositions(waiting.map((d) => parseJobId(d.id, d.runId)));
  const found = new Map<string, number>();
  for (const document of waiting) {
    const position = positions.get(parseJobId(document.id, document.runId));
    if (position !== undefined) found.set(document.id, position);
  }
  return found;
}

/** The progress events of documents as they are now, with their places in line. */
export async function progressEventsOf(platform: Platform, documents: Document[]): Promise<DocumentProgressEvent[]> {
  const positions = await queuePositions(platform, documents);
  return documents.map((document) => ({ ...progressEventOf(document), queuePosition: positions.get(document.id) ?? null }));
}

/** The line of parse jobs moved (a job left it): the places of the documents behind it changed. */
export const QUEUE_MOVED_TOPIC = "knowledge.parse.queue-moved";
const LINE_MOVED = Symbol("the parse queue moved");

/**
 * A knowledge base's progress events: first those of `current()` (its documents being parsed, read once the
 * subscriptions are open, so that nothing between is missed), then every change, with the changed places of
 * its waiting documents each time the line moves. The two subscriptions read as one stream, in arrival order.
 */
export async function progressWithPlaces(platform: Platform, knowledgeBaseId: string, current: () => Promise<Document[]>): Promise<AsyncGenerator<DocumentProgressEvent>> {
  const places = new PlaceFollower(platform, knowledgeBaseId);
  const events = await snapshotThenLive<DocumentProgressEvent | typeof LINE_MOVED>(platform.pubsub, [progressTopic(knowledgeBaseId), QUEUE_MOVED_TOPIC], async () => progressEventsOf(platform, await current()), (topic, payload) =>
    topic === QUEUE_MOVED_TOPIC ? LINE_MOVED : (payload as DocumentProgressEvent),
  );
  return (async function* () {
    for await (const event of events) {
      if (event === LINE_MOVED) yield* await places.changed();
      else yield places.saw(event);
    }
  })();
}

/** How many waiting documents of one knowledge base a subscriber follows the places of (the rest wait further back). */
const FOLLOWED_PLACES = 500;

/**
 * Follows the places in line of a knowledge base's waiting documents for one subscriber: it notes each event
 * the subscriber is sent, and after the line moved gives the events of the documents whose place changed.
 */
export class PlaceFollower {
  private readonly said = new Map<string, number | null>();

  constructor(
    private readonly platform: Platform,
    private readonly knowledgeBaseId: string,
  ) {}

  saw(event: DocumentProgressEvent): DocumentProgressEvent {
    this.said.set(event.documentId, event.queuePosition);
    return event;
  }

  async changed(): Promise<DocumentProgressEvent[]> {
    const waiting = await this.platform.db.getRepository(Document).find({
      where: { knowledgeBaseId: this.knowledgeBaseId, run: RUN.running },
      order: { processBeginAt: "ASC" },
      take: FOLLOWED_PLACES,
    });
    const events = await progressEventsOf(this.platform, waiting);
    return events.filter((event) => event.queuePosition !== null && this.said.get(event.documentId) !== event.queuePosition).map((event) => this.saw(event));
  }
}

const ANNOUNCE_INTERVAL_MS = 1000;
let lastAnnounced = 0;
let trailing: NodeJS.Timeout | undefined;

/**
 * Tells the subscribers of parsing progress that the line moved (a parse job left it), so that they say the
 * new places. At most once a second per process, so that a burst of small documents does not become a burst of queries;
 * a move within the second is announced at its end, so the last places said are the true ones.
 */
export function announceQueueMoved(platform: Platform): void {
  if (trailing) return;
  const wait = lastAnnounced + ANNOUNCE_INTERVAL_MS - Date.now();
  if (wait > 0) {
    trailing = setTimeout(() => {
      trailing = undefined;
      announceQueueMoved(platform);
    }, wait);
    trailing.unref();
    return;
  }
  lastAnnounced = Date.now();
  // A trailing announcement may come after a server closed its platform (the database goes first).
  if (platform.db.isInitialized) platform.pubsub.publish(QUEUE_MOVED_TOPIC, {});
}
