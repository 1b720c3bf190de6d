import { z } from 'zod';
import { parseQuietHours } from './quietHours.js';

/**
 * The `notify` section of config.json: what reaches the user when Cogito needs them while
 * they are not looking. Defaults live here once; the notifier reads the parsed values.
 */

/** What can notify; each can be turned off on its own in `notify.kinds`. */
export const NOTIFY_KINDS = ['wait', 'approval', 'pause', 'reminder', 'stopped'] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

const kindsShape = Object.fromEntries(NOTIFY_KINDS.map((k) => [k, z.boolean().default(true)])) as {
  [K in NotifyKind]: z.ZodDefault<z.ZodBoolean>;
};

export const notifySchema = z
  .strictObject({
    /**
     * Also use the desktop's notifications (notify-send, osascript, a Windows toast) while the
     * screen is attached. A background agent with no screen always uses them.
     */
    desktop: z.boolean().default(false),
    /**
     * The user's own program, run instead of the desktop's notifier with the event as JSON on
     * stdin. An array is the program and its arguments as they are; a string is split on
     * spaces (a space inside an argument is written `\ `). Never run through a shell.
     */
    command: z.union([z.string().trim().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    kinds: z.strictObject(kindsShape).prefault({}),
    /** Local time span without notifications, e.g. "22:00-07:00" (over midnight is fine). */
    quietHours: z
      .string()
      .refine((s) => parseQuietHours(s) !== undefined, {
        message: 'is not a span of local time like "22:00-07:00"',
        params: {
          fix: 'Write two 24-hour times joined by a dash, e.g. "quietHours": "22:00-07:00", or remove it.',
        },
      })
      .optional(),
  })
  .prefault({});

export type NotifySettings = z.output<typeof notifySchema>;
