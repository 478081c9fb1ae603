import type { Platform } from "./index";

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
