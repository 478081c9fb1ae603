import type { DataSource } from "typeorm";
import type { Config } from "./config";
import type { FairScheduler } from "./fair-scheduler";
import type { PubSub } from "./pubsub";
import type { JobQueue } from "./queue";
import type { ObjectStore } from "./storage";

/** The ports every domain service works through. createPlatform (index.ts) is the one place that picks embedded or external parts. */
export interface Platform {
  config: Config;
  db: DataSource;
  pubsub: PubSub;
  storage: ObjectStore;
  queue: JobQueue<Services>;
  /** Slots for heavy database work, shared fairly across tenants. */
  heavyWork: FairScheduler;
  /** One line per port saying which implementation runs. */
  describe(): string[];
  close(): Promise<void>;
}

/**
 * Every service of a process, by name: what resolvers, REST routes and jobs receive. The ground declares only
 * itself; each domain adds its own services in its `services.ts` (TypeScript module augmentation of this
 * interface), and the composition root (`server/src/services.ts`) builds the one object. So no folder imports a
 * folder above it to name a service, and adding a domain is one file there plus one line in the root.
 */
export interface Services {
  platform: Platform;
  /** Writes what services keep in memory for a moment (the model usage log); called before the platform closes. */
  close(): Promise<void>;
}
