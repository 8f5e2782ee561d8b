// Drawing in turn: at most PER_FRAME badges, within FRAME_MS, in one
// frame; the others wait for later frames, in the order they came, so that
// a listing of a thousand badges never draws them in one long task. The
// count is shared by every copy of this code in the page (the loader's and
// the package's).

/** Badges drawn per frame at most: the style and layout of a thousand shadow
 * roots at once is a long task of its own; fifty are a few milliseconds. */
export const PER_FRAME = 50;
/** The most time a frame spends drawing badges (a slow device draws fewer a frame). */
const FRAME_MS = 8;
/** The count of this frame and the drawings waiting for a later one, shared
 * by every copy of this code in the page (the loader's and the package's). */
const FRAMES = Symbol.for("x402-verdict.frames");
const frames = (globalThis[FRAMES] ??= { drawn: 0, spent: 0, next: 0, waiting: [] });

/** Counts the next frame from now: at the next animation frame, or after 100 ms when none comes (a hidden page draws no frames). */
function nextFrame() {
  if (frames.next) return;
  const id = (frames.next = Symbol());
  const go = () => {
    if (frames.next !== id) return;
    frames.next = 0;
    frames.drawn = 0;
    frames.spent = 0;
    while (frames.waiting.length && frames.drawn < PER_FRAME && frames.spent < FRAME_MS) turn(frames.waiting.shift());
  };
  try {
    requestAnimationFrame(go);
  } catch {
    // No frames here: the timer counts them.
  }
  setTimeout(go, 100);
}

function turn(draw) {
  frames.drawn++;
  nextFrame();
  const start = performance.now();
  try {
    draw();
  } catch {
    // A drawing never stops the others.
  }
  frames.spent += performance.now() - start;
}

/**
 * Runs `draw` (which draws one badge) at once when fewer than PER_FRAME
 * badges were drawn in this frame, within FRAME_MS, and none waits, else in
 * a later frame, in the order they came.
 */
export function inTurn(draw) {
  if (frames.drawn < PER_FRAME && frames.spent < FRAME_MS && !frames.waiting.length) turn(draw);
  else {
    frames.waiting.push(draw);
    nextFrame();
  }
}
