import { Foundation1763700000000 } from "./1763700000000-foundation";
import { Models1763800000000 } from "./1763800000000-models";
import { Knowledge1763900000000 } from "./1763900000000-knowledge";
import { ChatAssistants1764000000000 } from "./1764000000000-chat-assistants";
import { ChatConversations1764000000001 } from "./1764000000001-chat-conversations";
import { SearchPostings1764100000000 } from "./1764100000000-search-postings";
import { ReanalyseSearchTerms1764200000000 } from "./1764200000000-reanalyse-search-terms";
import { ParseAttempts1764300000000 } from "./1764300000000-parse-attempts";
import { Credentials1764310000000 } from "./1764310000000-credentials";
import { ParseLog1764320000000 } from "./1764320000000-parse-log";
import { KbTasks1764340000000 } from "./1764340000000-kb-tasks";
import { LiveCounters1764420000000 } from "./1764420000000-live-counters";
import { KbTaskLog1764450000000 } from "./1764450000000-kb-task-log";
import { BuiltinProducers1764450000001 } from "./1764450000001-builtin-producers";
import { SearchTermsVersion1764460000000 } from "./1764460000000-search-terms-version";
import { Flows1764470000000 } from "./1764470000000-flows";
import { FlowShares1764480000000 } from "./1764480000000-flow-shares";
import { Files1764490000000 } from "./1764490000000-files";
import { Teams1764490000001 } from "./1764490000001-teams";
import { Identities1764490000002 } from "./1764490000002-identities";
import { RecycleBin1764500000000 } from "./1764500000000-recycle-bin";
import { Search1764500000001 } from "./1764500000001-search";
import { ChunkMerge1764500000002 } from "./1764500000002-chunk-merge";
import { PackedPostings1764500000003 } from "./1764500000003-packed-postings";
import { PacksBuiltInSlices1764500000004 } from "./1764500000004-packs-built-in-slices";
import { UpdateTriggersSkipNoRows1764500000005 } from "./1764500000005-update-triggers-skip-no-rows";

/** In order of their timestamps; TypeORM records which ran in the `migrations` table. */
export const migrations = [
  Foundation1763700000000,
  Models1763800000000,
  Knowledge1763900000000,
  ChatAssistants1764000000000,
  ChatConversations1764000000001,
  SearchPostings1764100000000,
  ReanalyseSearchTerms1764200000000,
  ParseAttempts1764300000000,
  Credentials1764310000000,
  ParseLog1764320000000,
  KbTasks1764340000000,
  LiveCounters1764420000000,
  KbTaskLog1764450000000,
  BuiltinProducers1764450000001,
  SearchTermsVersion1764460000000,
  Flows1764470000000,
  FlowShares1764480000000,
  Files1764490000000,
  Teams1764490000001,
  Identities1764490000002,
  RecycleBin1764500000000,
  Search1764500000001,
  ChunkMerge1764500000002,
  PackedPostings1764500000003,
  PacksBuiltInSlices1764500000004,
  UpdateTriggersSkipNoRows1764500000005,
];
