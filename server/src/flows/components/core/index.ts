import type { ComponentDefinition } from "../../component";
import { Answer } from "./answer";
import { Begin } from "./begin";
import { Code } from "./code";
import { Concentrator } from "./concentrator";
import { Iteration } from "./iteration";
import { Message } from "./message";
import { Note } from "./note";
import { Switch } from "./switch";
import { Template } from "./template";

/** The core components, in palette order (one import and one line each). */
export const CORE_COMPONENTS: readonly ComponentDefinition[] = [Begin, Answer, Message, Switch, Concentrator, Template, Iteration, Code, Note];
