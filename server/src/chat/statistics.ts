import type { DataSource } from "typeorm";
import { isTimezone } from "../auth/profile-options";
import { FieldChecks } from "../platform/errors";

/** The chat overview's date range is at most about a year of daily points. */
export const STATISTICS_MAX_DAYS = 366;

export interface StatPoint {
  date: string;
  value: number;
}

export interface ChatStatisticsResult {
  messages: StatPoint[];
  activeUsers: StatPoint[];
  tokenOutputSpeed: StatPoint[];
  tokensConsumed: StatPoint[];
  sessionRounds: StatPoint[];
  satisfaction: StatPoint[];
  totals: { messages: number; activeUsers: number; tokenOutputSpeed: number; tokensConsumed: number; sessionRounds: number; satisfaction: number };
}

export interface StatisticsRange {
  tenantId: string;
  /** One assistant, or every conversation of the tenant (deleted assistants' too: their usage happened). */
  assistantId?: string | null;
  /** YYYY-MM-DD, both included: days of `timeZone`. */
  from: string;
  to: string;
  /** The IANA time zone whose days the points are (the viewer's); UTC when absent. */
  timeZone?: string | null;
}

interface Aggregates {
  questions: number;
  users: number;
  conversations: number;
  completion: number;
  duration_ms: number;
  tokens: number;
  up: number;
  rated: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

function parseDay(value: string): number | null {
  if (!DATE.test(value)) return null;
  const time = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value ? null : time;
}

const round = (value: number, places = 2) => Math.round(value * 10 ** places) / 10 ** places;

/**
 * The figures of one day or of the whole range, from what conversations persisted:
 * - messages: the users' questions;
 * - active users: distinct people asking (a conversation's source and user id);
 * - token output speed: completion tokens per second of answering, over answers that took time;
 * - tokens consumed: prompt and completion tokens of the answers;
 * - session rounds: questions per conversation that had a question;
 * - satisfaction: thumbs up out of rated answers (0..1).
 */
function figures(a: Aggregates) {
  return {
    messages: a.questions,
    activeUsers: a.users,
    tokenOutputSpeed: a.duration_ms > 0 ? round(a.completion / (a.duration_ms / 1000)) : 0,
    tokensConsumed: a.tokens,
    sessionRounds: a.conversations > 0 ? round(a.questions / a.conversations) : 0,
    satisfaction: a.rated > 0 ? round(a.up / a.rated, 4) : 0,
  };
}

const AGGREGATES = `
  count(*) FILTER (WHERE m.role = 'user')::int AS questions,
  count(DISTINCT c.source || ':' || c.user_id) FILTER (WHERE m.role = 'user')::int AS users,
  count(DISTINCT c.id) FILTER (WHERE m.role = 'user')::int AS conversations,
  coalesce(sum(m.completion_tokens) FILTER (WHERE m.role = 'assistant' AND m.duration_ms > 0 AND m.completion_tokens > 0), 0)::float8 AS completion,
  coalesce(sum(m.duration_ms) FILTER (WHERE m.role = 'assistant' AND m.duration_ms > 0 AND m.completion_tokens > 0), 0)::float8 AS duration_ms,
  coalesce(sum(m.prompt_tokens + m.completion_tokens) FILTER (WHERE m.role = 'assistant'), 0)::float8 AS tokens,
  count(*) FILTER (WHERE m.role = 'assistant' AND m.feedback->>'thumb' = 'up')::int AS up,
  count(*) FILTER (WHERE m.role = 'assistant' AND m.feedback->>'thumb' IN ('up', 'down'))::int AS rated`;

/** The chat overview: one point per day of [from, to] for each figure, and the figures of the whole range. */
export async function chatStatistics(db: DataSource, range: StatisticsRange): Promise<ChatStatisticsResult> {
  const from = parseDay(range.from);
  const to = parseDay(range.to);
  const timeZone = range.timeZone || "UTC";
  const checks = new FieldChecks()
    .check(from !== null, "from", "errors.chat.dateInvalid")
    .check(to !== null && (from === null || to >= from), "to", "errors.chat.dateInvalid")
    .check(isTimezone(timeZone), "timeZone", "errors.chat.timeZoneInvalid");
  checks.throwIfAny();
  const days = (to! - from!) / DAY_MS + 1;
  checks.check(days <= STATISTICS_MAX_DAYS, "to", "errors.chat.dateRangeTooLong", { max: STATISTICS_MAX_DAYS }).throwIfAny();

  // The days begin at midnight in the viewer's time zone (PostgreSQL's zone rules, daylight saving included).
  const where = `FROM chat_message m JOIN chat_conversation c ON c.id = m.conversation_id
    WHERE c.tenant_id = $1 AND ($2::varchar IS NULL OR c.assistant_id = $2)
      AND m.created_at >= ($3::date::timestamp AT TIME ZONE $5::text) AND m.created_at < (($4::date + 1)::timestamp AT TIME ZONE $5::text)`;
  const params = [range.tenantId, range.assistantId ?? null, range.from, range.to, timeZone];
  const [daily, total] = await Promise.all([
    db.query(`SELECT to_char(m.created_at AT TIME ZONE $5::text, 'YYYY-MM-DD') AS day, ${AGGREGATES} ${where} GROUP BY 1`, params) as Promise<(Aggregates & { day: string })[]>,
    db.query(`SELECT ${AGGREGATES} ${where}`, params) as Promise<Aggregates[]>,
  ]);
  const byDay = new Map(daily.map((row) => [row.day, figures(row)]));
  const empty = figures({ questions: 0, users: 0, conversations: 0, completion: 0, duration_ms: 0, tokens: 0, up: 0, rated: 0 });
  const result: ChatStatisticsResult = {
    messages: [],
    activeUsers: [],
    tokenOutputSpeed: [],
    tokensConsumed: [],
    sessionRounds: [],
    satisfaction: [],
    totals: figures(total[0]),
  };
  for (let day = 0; day < days; day++) {
    const date = new Date(from! + day * DAY_MS).toISOString().slice(0, 10);
    const point = byDay.get(date) ?? empty;
    for (const key of ["messages", "activeUsers", "tokenOutputSpeed", "tokensConsumed", "sessionRounds", "satisfaction"] as const) {
      result[key].push({ date, value: point[key] });
    }
  }
  return result;
}
