/**
 * Keeps a scrolled-up pane on the same content while rows are appended below it (a reply
 * streaming in, new messages). Scroll positions count rows up from the bottom, so without
 * this every new row would push the view down a row. At offset 0 the pane follows the
 * bottom, as before.
 *
 * The position the user asked for (the UI store's `ScrollPos`: `offset`, with `mark` bumped
 * on every scroll key) is the base; the view measures how many rows were appended below since then and adds them. A
 * resize starts a new base from the position shown, so the view stays where it was.
 */
import { useRef } from 'react';

interface AnchorInput<S> {
  /** The offset the screen asked for (rows up from the bottom). */
  offset: number;
  /** Changes with every scroll action, even one that asks for the same number again. */
  mark: number;
  width: number;
  /** A note of what is below now, to measure later growth against. */
  snapshot(): S;
  /** Rows appended below since `snapshot` was taken. */
  grownSince(snap: S): number;
}

interface AnchorState<S> {
  offset: number;
  mark: number;
  width: number;
  base: number;
  snap: S | undefined;
  /** The offset shown last time (the base after a resize). */
  shown: number;
}

/** The offset to show now, and the state to keep for the next render. Pure. */
export function anchorOffset<S>(
  prev: AnchorState<S> | undefined,
  a: AnchorInput<S>,
): { value: number; state: AnchorState<S> } {
  let st: AnchorState<S>;
  if (!prev || prev.offset !== a.offset || prev.mark !== a.mark) {
    st = {
      offset: a.offset,
      mark: a.mark,
      width: a.width,
      base: a.offset,
      snap: undefined,
      shown: 0,
    };
    if (a.offset > 0) st.snap = a.snapshot();
  } else if (prev.width !== a.width) {
    st = {
      ...prev,
      width: a.width,
      base: prev.shown,
      snap: prev.shown > 0 ? a.snapshot() : undefined,
    };
  } else st = { ...prev };
  const value =
    st.base > 0 && st.snap !== undefined ? Math.max(0, st.base + a.grownSince(st.snap)) : st.base;
  st.shown = value;
  return { value, state: st };
}

/** `anchorOffset` kept across renders: a cache of the derivation, not a second record of the
 * scroll position (the UI store's `ScrollPos` is that record; see replyView.ts). */
export function useScrollAnchor<S>(a: AnchorInput<S>): number {
  const ref = useRef<AnchorState<S> | undefined>(undefined);
  const { value, state } = anchorOffset(ref.current, a);
  ref.current = state;
  return value;
}
