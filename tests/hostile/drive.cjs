// Drives a running Cairn server through the hostile corpus as a user would: signs up, makes a knowledge base,
// uploads every file through the web upload route, parses them all, and waits for each to end — while it asks
// /healthz every 200 ms and samples the server's resident memory. Used by tests/hostile and bench:hostile.
"use strict";

const fs = require("node:fs");

const RUN = { running: "1", cancelled: "2", done: "3", failed: "4" };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident and peak resident memory of a process, in bytes (Linux). */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "latin1");
    const kilobytes = (field) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024;
    return { rss: kilobytes("VmRSS"), peak: kilobytes("VmHWM") };
  } catch {
    return null;
  }
}

function client(url) {
  const graphql = async (query, variables, token, retries = 2) => {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    }).catch((error) => {
      // a kept-alive connection the server closed just as it was reused (undici's known race): ask again
      if (retries > 0 && error.cause?.code === "ECONNRESET") return null;
      throw error;
    });
    if (response === null) return graphql(query, variables, token, retries - 1);
    const body = await response.json();
    if (!body.data || body.errors) throw new Error(`${query.slice(0, 60)}…: ${JSON.stringify(body.errors)}`);
    return body.data;
  };
  return { url, graphql };
}

/** Signs up a new user and makes a knowledge base; returns the session token and the knowledge base's id. */
async function newTenant(url, label) {
  const api = client(url);
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const password = "correct horse battery";
  // signing up signs in
  const { register } = await api.graphql(`mutation($input: RegisterInput!) { register(input: $input) { token } }`, { input: { email, nickname: label, password } });
  const { createKnowledgeBase } = await api.graphql(
    `mutation($input: KnowledgeBaseInput!) { createKnowledgeBase(input: $input) { id } }`,
    { input: { name: `Hostile ${label}` } },
    register.token,
  );
  return { token: register.token, knowledgeBaseId: createKnowledgeBase.id };
}

/** Uploads files through the web route; answers with the accepted ones and their ids, and the refused ones with their message. */
async function upload(url, tenant, files) {
  const accepted = [];
  const refused = [];
  for (const file of files) {
    const form = new FormData();
    form.append("kb_id", tenant.knowledgeBaseId);
    form.append("file", new Blob([new Uint8Array(file.data)]), file.name);
    const response = await fetch(`${url}/v1/document/upload`, { method: "POST", headers: { authorization: tenant.token }, body: form });
    const answer = await response.json();
    if (answer.code === 0) accepted.push({ file, id: answer.data[0].id });
    else refused.push({ file, message: answer.message });
  }
  return { accepted, refused };
}

/** Asks /healthz every `everyMs` until stopped; remembers the slowest answer (a failed or timed-out one counts as its wait). */
function healthProbe(url, everyMs = 200) {
  let stopped = false;
  let slowest = 0;
  let answers = 0;
  const failures = [];
  const done = (async () => {
    while (!stopped) {
      const startedAt = performance.now();
      try {
        const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(10_000) });
        await response.text();
        if (!response.ok) failures.push(`status ${response.status}`);
      } catch (error) {
        failures.push(String(error));
      }
      slowest = Math.max(slowest, performance.now() - startedAt);
      answers += 1;
      await sleep(everyMs);
    }
  })();
  return {
    answers: () => answers,
    async stop() {
      stopped = true;
      await done;
      return { slowestMs: slowest, answers, failures };
    },
  };
}

/** Samples a process's memory every 100 ms; the kernel's own high-water mark is read at the end too. */
function memorySampler(pid) {
  let peak = 0;
  const timer = setInterval(() => {
    const memory = memoryOf(pid);
    if (memory) peak = Math.max(peak, memory.rss);
  }, 100);
  return {
    stop() {
      clearInterval(timer);
      const memory = memoryOf(pid);
      return Math.max(peak, memory?.peak ?? 0);
    },
  };
}

const DOCUMENTS = `query($knowledgeBaseId: ID!, $page: Int) {
  documents(knowledgeBaseId: $knowledgeBaseId, page: $page, pageSize: 100) { total items { id name run progressMsg failure { messageKey params } } }
}`;

async function allDocuments(api, tenant) {
  const documents = [];
  for (let page = 1; ; page += 1) {
    const { documents: found } = await api.graphql(DOCUMENTS, { knowledgeBaseId: tenant.knowledgeBaseId, page }, tenant.token);
    documents.push(...found.items);
    if (documents.length >= found.total || found.items.length === 0) return documents;
  }
}

/**
 * Uploads and parses `files` on the server at `url` (process `pid`) and waits until no document is parsing
 * (or `timeoutMs` runs out). Returns every document's outcome with the time it took to end, the slowest
 * /healthz answer and the server's peak resident memory.
 */
async function driveCorpus(url, pid, files, { timeoutMs = 600_000, log = () => undefined } = {}) {
  const api = client(url);
  const tenant = await newTenant(url, "hostile");
  const probe = healthProbe(url);
  const memory = memorySampler(pid);
  try {
    const { accepted, refused } = await upload(url, tenant, files);
    log(`${accepted.length} files uploaded, ${refused.length} refused at upload`);
    const startedAt = performance.now();
    await api.graphql(`mutation($ids: [ID!]!) { runParsing(ids: $ids) { id } }`, { ids: accepted.map((a) => a.id) }, tenant.token);
    const endedAt = new Map();
    let documents = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      documents = await allDocuments(api, tenant);
      for (const document of documents) {
        if (document.run !== RUN.running && !endedAt.has(document.id)) {
          endedAt.set(document.id, (performance.now() - startedAt) / 1000);
          log(`${document.name}: ${document.run === RUN.done ? "done" : document.run === RUN.failed ? "failed" : `run ${document.run}`} after ${endedAt.get(document.id).toFixed(1)} s`);
        }
      }
      if (documents.every((document) => document.run !== RUN.running) || Date.now() > deadline) break;
      await sleep(250);
    }
    const byId = new Map(documents.map((document) => [document.id, document]));
    const outcomes = accepted.map(({ file, id }) => {
      const document = byId.get(id);
      const lastLine = document.progressMsg.split("\n").filter(Boolean).at(-1) ?? "";
      return {
        name: file.name,
        attack: file.attack,
        expected: file.expect,
        outcome: document.run === RUN.done ? "done" : document.run === RUN.failed ? "failed" : document.run === RUN.running ? "still parsing" : `run ${document.run}`,
        reason: document.failure?.messageKey ?? null,
        lastLine: lastLine.replace(/^\d{2}:\d{2}:\d{2}\s+/, ""),
        seconds: endedAt.get(id) ?? null,
      };
    });
    for (const { file, message } of refused) {
      outcomes.push({ name: file.name, attack: file.attack, expected: file.expect, outcome: "refused", reason: null, lastLine: message, seconds: 0 });
    }
    return { tenant, outcomes, ...(await probe.stop()), peakRssBytes: memory.stop() };
  } catch (error) {
    await probe.stop();
    memory.stop();
    throw error;
  }
}

module.exports = { driveCorpus, newTenant, upload, healthProbe, memoryOf, client, RUN };
