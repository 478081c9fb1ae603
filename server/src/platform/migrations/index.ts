import { Foundation1763700000000 } from "./1763700000000-foundation";

/** In order of their timestamps; TypeORM records which ran in the `migrations` table. */
export const migrations = [Foundation1763700000000];
