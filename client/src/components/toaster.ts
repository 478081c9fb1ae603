import { createToaster } from "@chakra-ui/react";
import i18n from "../i18n";

/** §9: toasts 50 px from the top, one at a time; success lasts 2 s, an error 3 s. */
const SUCCESS_MS = 2000;
const ERROR_MS = 3000;

export const toaster = createToaster({
  placement: "top",
  max: 1,
  offsets: { top: "50px", right: "16px", bottom: "16px", left: "16px" },
});

/** The §8 success messages. */
export type SuccessMessage =
  | "registered"
  | "loggedIn"
  | "loggedOut"
  | "modified"
  | "created"
  | "deleted"
  | "renamed"
  | "operated"
  | "updated"
  | "uploaded"
  | "copied";

// With max 1 a new toast would wait in a queue; the newest message is the one that matters, so it replaces the shown one.
function replaceWith(options: Parameters<typeof toaster.create>[0]): void {
  toaster.dismiss();
  toaster.create(options);
}

export const notify = {
  success(message: SuccessMessage): void {
    replaceWith({ type: "success", title: i18n.t(`success.${message}`), duration: SUCCESS_MS });
  },
  /** A success that names what happened, in a text of the caller's (e.g. the items a restore renamed). */
  info(text: string): void {
    replaceWith({ type: "success", title: text, duration: SUCCESS_MS * 2 });
  },
  error(text: string): void {
    replaceWith({ type: "error", title: text, duration: ERROR_MS });
  },
};
