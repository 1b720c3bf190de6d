import { useCallback, useEffect, useRef } from 'react';

/**
 * Mouse reporting for the screen's lifetime: turned on at mount when `enabled` (the `mouse`
 * setting), flipped by `toggle` (Ctrl+S), and off again at unmount. The terminal mode is
 * the session's (`onMouse`), which also turns it off on every other exit path. A setting
 * that changes (the screen drawn before the configuration was read, runTui's early screen)
 * is followed.
 */
export function useMouse(
  enabled: boolean,
  onMouse: ((on: boolean, toggled: boolean) => void) | undefined,
): { toggle(): void } {
  const on = useRef(enabled);
  const handler = useRef(onMouse);
  handler.current = onMouse;
  const setting = useRef(enabled);
  useEffect(() => {
    if (setting.current === enabled) return;
    setting.current = enabled;
    if (on.current === enabled) return;
    on.current = enabled;
    handler.current?.(enabled, false);
  }, [enabled]);
  useEffect(() => {
    if (on.current) handler.current?.(true, false);
    return () => {
      if (on.current) handler.current?.(false, false);
    };
  }, []);
  const toggle = useCallback(() => {
    on.current = !on.current;
    handler.current?.(on.current, true);
  }, []);
  return { toggle };
}
