import type { FlowTemplate } from "./flow-template";
import { generateParams, templateDsl } from "./template-graph";

/**
 * Cairn's own: meeting notes in, minutes out — a summary of what was discussed and decided, and a list of who does
 * what by when, put together by a Template. It needs nothing but a chat model (the built-in one works) and runs
 * once on the notes given to Begin.
 */

export const meetingMinutes: FlowTemplate = {
  id: "meeting-minutes",
  title: "flow.templates.meeting-minutes.title",
  description: "flow.templates.meeting-minutes.description",
  needs: [],
  dsl: templateDsl(
    [
      {
        id: "begin",
        name: "Begin",
        at: [0, 1],
        params: {
          prologue: "",
          query: [
            { key: "meeting", name: "Meeting", type: "line", optional: true, value: "" },
            { key: "notes", name: "Notes or transcript", type: "paragraph", optional: false, value: "" },
          ],
        },
      },
      {
        id: "Generate:Summary",
        name: "Summary",
        at: [1, 0.4],
        params: generateParams("Summarise the meeting notes below for someone who missed the meeting: what was discussed and what was decided, in a few bullet points. Use only what the notes say.\n\n<context>\n{notes}\n</context>\n\nQuestion: What was discussed and decided?", {
          window: 0,
          parameters: { notes: "begin@notes" },
        }),
      },
      {
        id: "Generate:Actions",
        name: "Action items",
        at: [1, 1.6],
        params: generateParams("List the action items of the meeting notes below, one bullet each: who does what, and by when if the notes say. When there are none, write \"No action items.\" Use only what the notes say.\n\n<context>\n{notes}\n</context>\n\nQuestion: Who will do what, and by when?", {
          window: 0,
          parameters: { notes: "begin@notes" },
        }),
      },
      {
        id: "Template:Minutes",
        name: "Minutes",
        at: [2, 1],
        params: {
          content: "# Minutes {meeting}\n\n## Summary\n{summary}\n\n## Action items\n{actions}",
          parameters: [
            { key: "meeting", component_id: "begin@meeting" },
            { key: "summary", component_id: "Generate:Summary" },
            { key: "actions", component_id: "Generate:Actions" },
          ],
        },
      },
      { id: "Answer:Result", name: "Show the minutes", at: [3, 1] },
    ],
    [
      ["begin", "Generate:Summary"],
      ["begin", "Generate:Actions"],
      ["Generate:Summary", "Template:Minutes"],
      ["Generate:Actions", "Template:Minutes"],
      ["Template:Minutes", "Answer:Result"],
    ],
  ),
};
