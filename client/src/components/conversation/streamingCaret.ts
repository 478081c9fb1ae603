/** A caret after the last character of an answer while its tokens arrive (on the box around an AnswerMarkdown). */
export const streamingCaret = {
  "& .chat-markdown > *:last-child::after": {
    content: '"▍"',
    marginStart: "0.5",
    color: "brand.solid",
    animation: "caret-blink 1s steps(1) infinite",
  },
  "@keyframes caret-blink": { "50%": { opacity: 0 } },
};
