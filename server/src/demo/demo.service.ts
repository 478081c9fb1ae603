import type { ChatAssistant } from "../chat/assistant.entity";
import type { AssistantService } from "../chat/assistant.service";
import type { FlowDsl } from "../flows/dsl";
import type { Flow } from "../flows/flow.entity";
import { localeOf, type FlowService } from "../flows/flow.service";
import { knowledgeBaseQa } from "../flows/templates/knowledge-base-qa";
import { RUN, type Document } from "../knowledge/document.entity";
import type { DocumentService } from "../knowledge/document.service";
import type { KnowledgeBase } from "../knowledge/knowledge-base.entity";
import type { KnowledgeBaseService } from "../knowledge/knowledge-base.service";
import { localizedMessage } from "../platform/messages";
import type { SignedIn } from "../policies/principal";
import { readSamples, SAMPLE_FILES, SAMPLE_QUESTIONS } from "./samples";

/**
 * The guided demo: for one user, a knowledge base of the sample documents (parsed by the tenant's default models,
 * the built-in ones on a fresh install), an assistant over it and a flow from the knowledge-base Q&A template.
 *
 * Everything is made through the domain services, which check the permissions, so the demo is the user's own work
 * like any other. The three things carry the demo's picture (DEMO_MARK) as their avatar: that is how a second click
 * finds them again, and why a knowledge base the user named "Cairn demo" is never taken for the demo (the knowledge
 * base service gives the demo's a free name beside it). Starting again resumes from what exists: a failure half-way
 * (an upload refused by the quota, a parse that failed) is finished by clicking again, never duplicated.
 */

/** A 48×48 PNG of three stacked stones: the avatar of the demo's knowledge base, assistant and flow. */
export const DEMO_MARK =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAYAAABXAvmHAAAAoklEQVR42u2ZsQ2AMAzA+I4L+ICFnS9Y+YAn+K6oQxcEElRpmqa2lAkGe2iKxDAAAAAA2GI/zvA0TUo3EfNX3lRErryZCAII6P0Qu1ijiXndQpw36fTcpHTuNCteNURaXjWilLxaBAEE9H6IXaxRFxfZnXFaPkvHd00IS06z4mohpcWLhmjLi0bUkheLIICA3g+xizXq4iJz8ykhFcRvIDDCBSJlS0c8ZgSpAAAAAElFTkSuQmCC";

/** How far one user's demo is: what exists of it (null: not made yet) and its documents. */
export interface DemoState {
  knowledgeBase: KnowledgeBase | null;
  documents: Document[];
  assistant: ChatAssistant | null;
  flow: Flow | null;
  questions: readonly string[];
  /** How many sample documents the demo ships: the parsing step is done when that many are. */
  sampleCount: number;
}

export interface DemoDependencies {
  knowledgeBases: KnowledgeBaseService;
  documents: DocumentService;
  assistants: AssistantService;
  flows: FlowService;
}

const PAGE_SIZE = 100;

/** The first item of a paged list that passes `wanted`, reading page after page. */
async function firstMatching<T>(page: (n: number) => Promise<{ items: T[]; total: number }>, wanted: (item: T) => boolean): Promise<T | null> {
  for (let n = 1; ; n++) {
    const { items, total } = await page(n);
    const found = items.find(wanted);
    if (found) return found;
    if (items.length === 0 || n * PAGE_SIZE >= total) return null;
  }
}

/** `base`, or `base(1)`, `base(2)`… when a name of `taken` has it (case-insensitively), as the services name copies. */
export function freeName(base: string, taken: readonly string[]): string {
  const names = new Set(taken.map((name) => name.toLowerCase()));
  if (!names.has(base.toLowerCase())) return base;
  for (let n = 1; ; n++) if (!names.has(`${base}(${n})`.toLowerCase())) return `${base}(${n})`;
}

/** The knowledge-base Q&A template with its Retrieval pointed at the demo's knowledge base. */
export function demoFlowDsl(knowledgeBaseId: string): FlowDsl {
  const dsl = structuredClone(knowledgeBaseQa.dsl);
  for (const component of Object.values(dsl.components)) {
    if (component.obj.component_name === "Retrieval") component.obj.params = { ...component.obj.params, kb_ids: [knowledgeBaseId] };
  }
  return dsl;
}

const retrievesFrom = (flow: Flow, knowledgeBaseId: string): boolean =>
  Object.values(flow.dsl.components).some((c) => c.obj.component_name === "Retrieval" && Array.isArray(c.obj.params.kb_ids) && c.obj.params.kb_ids.includes(knowledgeBaseId));

export class DemoService {
  /** One start at a time per user in this process, so that a double click makes one demo. */
  private readonly starting = new Map<string, Promise<DemoState>>();

  constructor(private readonly services: DemoDependencies) {}

  /** The user's demo as it stands, making nothing. */
  async status(principal: SignedIn): Promise<DemoState> {
    const knowledgeBase = await this.findKnowledgeBase(principal);
    if (!knowledgeBase) return { knowledgeBase: null, documents: [], assistant: null, flow: null, questions: SAMPLE_QUESTIONS, sampleCount: SAMPLE_FILES.length };
    return {
      knowledgeBase,
      documents: await this.sampleDocuments(principal, knowledgeBase),
      assistant: await this.findAssistant(principal, knowledgeBase),
      flow: await this.findFlow(principal, knowledgeBase),
      questions: SAMPLE_QUESTIONS,
      sampleCount: SAMPLE_FILES.length,
    };
  }

  /**
   * Makes what is missing of the user's demo and returns it: the knowledge base, its samples (uploaded and queued for
   * parsing), the flow, and — once the knowledge base holds chunks, since an assistant needs parsed knowledge — the
   * assistant. The demo page calls it again when parsing is done.
   */
  start(principal: SignedIn): Promise<DemoState> {
    const key = `${principal.tenantId}:${principal.user.id}`;
    const running = this.starting.get(key);
    if (running) return running;
    const started = this.makeMissing(principal).finally(() => this.starting.delete(key));
    this.starting.set(key, started);
    return started;
  }

  private async makeMissing(principal: SignedIn): Promise<DemoState> {
    const { knowledgeBases, documents } = this.services;
    const locale = localeOf(principal);
    const found = await this.findKnowledgeBase(principal);
    const created = found ?? (await knowledgeBases.create(principal, { name: localizedMessage(locale, "demo.knowledgeBase.name"), description: localizedMessage(locale, "demo.knowledgeBase.description"), avatar: DEMO_MARK, language: "English" }));
    const present = await this.sampleDocuments(principal, created);
    const missing = SAMPLE_FILES.filter((name) => !present.some((d) => d.name === name));
    if (missing.length > 0) {
      const samples = (await readSamples()).filter((sample) => missing.includes(sample.name as (typeof SAMPLE_FILES)[number]));
      await documents.upload(principal, created.id, samples);
    }
    const waiting = (await this.sampleDocuments(principal, created)).filter((d) => d.run === RUN.unstarted || d.run === RUN.cancelled || d.run === RUN.failed);
    if (waiting.length > 0) await documents.runParsing(principal, waiting.map((d) => d.id));
    const flow = (await this.findFlow(principal, created)) ?? (await this.createFlow(principal, created));
    const knowledgeBase = await knowledgeBases.accessible(principal, created.id);
    const assistant = (await this.findAssistant(principal, knowledgeBase)) ?? (knowledgeBase.chunkCount > 0 ? await this.createAssistant(principal, knowledgeBase) : null);
    return { knowledgeBase, documents: await this.sampleDocuments(principal, knowledgeBase), assistant, flow, questions: SAMPLE_QUESTIONS, sampleCount: SAMPLE_FILES.length };
  }

  private findKnowledgeBase(principal: SignedIn): Promise<KnowledgeBase | null> {
    return firstMatching(
      (page) => this.services.knowledgeBases.list(principal, { page, pageSize: PAGE_SIZE }),
      (kb) => kb.avatar === DEMO_MARK && kb.tenantId === principal.tenantId && kb.createdBy === principal.user.id,
    );
  }

  private async sampleDocuments(principal: SignedIn, knowledgeBase: KnowledgeBase): Promise<Document[]> {
    const { items } = await this.services.documents.list(principal, knowledgeBase.id, { pageSize: PAGE_SIZE, orderBy: "name", desc: false });
    return items.filter((d) => (SAMPLE_FILES as readonly string[]).includes(d.name));
  }

  private findAssistant(principal: SignedIn, knowledgeBase: KnowledgeBase): Promise<ChatAssistant | null> {
    return firstMatching(
      (page) => this.services.assistants.list(principal, { page, pageSize: PAGE_SIZE }),
      (a) => a.icon === DEMO_MARK && a.createdBy === principal.user.id && a.kbIds.includes(knowledgeBase.id),
    );
  }

  private findFlow(principal: SignedIn, knowledgeBase: KnowledgeBase): Promise<Flow | null> {
    return firstMatching(
      (page) => this.services.flows.list(principal, { page, pageSize: PAGE_SIZE, tenantId: principal.tenantId }),
      (f) => f.avatar === DEMO_MARK && f.createdBy === principal.user.id && retrievesFrom(f, knowledgeBase.id),
    );
  }

  private async createAssistant(principal: SignedIn, knowledgeBase: KnowledgeBase): Promise<ChatAssistant> {
    const locale = localeOf(principal);
    const base = localizedMessage(locale, "demo.assistant.name");
    const { items } = await this.services.assistants.list(principal, { search: base, pageSize: PAGE_SIZE });
    return this.services.assistants.create(principal, {
      name: freeName(base, items.map((a) => a.name)),
      avatar: DEMO_MARK,
      description: localizedMessage(locale, "demo.assistant.description"),
      opener: [localizedMessage(locale, "demo.assistant.opener"), ...SAMPLE_QUESTIONS.map((q) => `- ${q}`)].join("\n"),
      knowledgeBaseIds: [knowledgeBase.id],
    });
  }

  private async createFlow(principal: SignedIn, knowledgeBase: KnowledgeBase): Promise<Flow> {
    const locale = localeOf(principal);
    const base = localizedMessage(locale, "demo.flow.title");
    const { items } = await this.services.flows.list(principal, { search: base, pageSize: PAGE_SIZE, tenantId: principal.tenantId });
    return this.services.flows.create(principal, {
      title: freeName(base, items.map((f) => f.title)),
      description: localizedMessage(locale, knowledgeBaseQa.description),
      avatar: DEMO_MARK,
      dsl: demoFlowDsl(knowledgeBase.id),
    });
  }
}
