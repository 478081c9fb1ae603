import { LANGUAGES } from "../../platform/messages";
import { localizedMessage } from "../../platform/messages";
import { readPrompt } from "./knowledge-prompt";

test("the built-in model finds the knowledge in a new assistant's system prompt in every interface language, and nothing after it", () => {
  const knowledge = "\nID: 0\n├── Title: leave.txt\n└── Content:\nRemote work is allowed two days a week.\n\nID: 1\n├── Title: pay.txt\n└── Content:\nSalaries are paid on the 25th.";
  for (const locale of LANGUAGES) {
    const system = `${localizedMessage(locale, "chat.defaults.systemPrompt").replace("{knowledge}", knowledge)}\n\n# Citation requirements\n- Cite the knowledge you use.`;
    const { passages } = readPrompt([{ role: "system", content: system }, { role: "user", content: "Can I work from home?" }]);
    expect({ locale, passages }).toEqual({
      locale,
      passages: [
        { id: "0", title: "leave.txt", text: "Remote work is allowed two days a week." },
        { id: "1", title: "pay.txt", text: "Salaries are paid on the 25th." },
      ],
    });
  }
});
