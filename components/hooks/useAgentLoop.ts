import { useEffect } from 'react';
import type { AgentLoop } from '../controller.js';

/**
 * Starts the agent's background loop when the screen mounts and stops it when it unmounts.
 * It holds no agent logic: the loop lives in src/.
 */
export function useAgentLoop(loop: AgentLoop | undefined): void {
  useEffect(() => {
    if (!loop) return;
    loop.start();
    return () => {
      void loop.stop();
    };
  }, [loop]);
}
