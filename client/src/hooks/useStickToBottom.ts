import { useRef } from "react";

/** A pixel distance from the bottom within which new text keeps the view scrolled down. */
const STICK_TO_BOTTOM_PX = 120;

/**
 * A scrolling box that stays at its bottom while its content grows, unless the reader scrolled up: call
 * `scrollDownIfStuck` when the content changed, and `stick()` to come back down on the next change.
 */
export function useStickToBottom() {
  const box = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  return {
    box,
    onScroll() {
      const element = box.current;
      if (element) stuck.current = element.scrollHeight - element.scrollTop - element.clientHeight < STICK_TO_BOTTOM_PX;
    },
    stick() {
      stuck.current = true;
    },
    scrollDownIfStuck() {
      const element = box.current;
      if (element && stuck.current) element.scrollTop = element.scrollHeight;
    },
  };
}
