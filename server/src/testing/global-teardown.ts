import { removeDatabaseTemplate } from "./database-template";

export default function globalTeardown(): void {
  removeDatabaseTemplate();
}
