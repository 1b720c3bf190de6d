/**
 * What the agent is doing, as every front end says it (the status bar, `cogito status`, the
 * away digest, `-p --json`): one of three for the user, working, resting (with the next timed
 * look, or none: it wakes on a change, a reminder or the user) or waiting for the user's
 * answer; besides them paused and an approval waiting. Plain data, carried by the `activity`
 * event whenever it changes.
 */
export type Activity =
  | ({ state: 'working' } & ActivityCommon)
  | ({
      state: 'resting';
      /** The next look that costs a request (epoch ms); absent: it wakes on a change. */
      nextLookAt?: number;
    } & ActivityCommon)
  | ({
      state: 'waiting';
      /** From when a workspace change wakes a look again (watch.resumeAfterWaitMs). */
      watchFrom?: number;
    } & ActivityCommon)
  | ({ state: 'paused'; reason?: string } & ActivityCommon)
  | ({ state: 'approval' } & ActivityCommon);

interface ActivityCommon {
  /** Since when (epoch ms): for `waiting`, when the open question was asked. */
  since: number;
  /** The question the user has not answered yet, if any (it stays open while it watches). */
  question?: OpenQuestionFacts;
}

/** A question the agent asked ([WAIT]) that the user has not answered yet. */
export interface OpenQuestionFacts {
  /** The reply's first line, as shown. */
  text: string;
  /** When it was asked (epoch ms). */
  at: number;
}

export type ActivityState = Activity['state'];
