import { t } from '../i18n/messages.js';
import { formatLedger, shortCount } from '../ledger/table.js';
import { parseWhen } from '../reminders/when.js';
import type { SlashCommand } from './table.js';
import { formatDateTime } from '../i18n/dates.js';

/** /cost, /remind and /ledger: what the always-on agent spends, plans and did. */
export const ALWAYS_ON_COMMANDS: readonly SlashCommand[] = [
  {
    name: 'cost',
    usage: '/cost',
    description: 'command.cost',
    run: ({ ctx }) => {
      const { say, lang } = ctx;
      const s = ctx.spending();
      const ledger = ctx.ledger();
      const prompt = ledger.reduce((n, r) => n + r.tokensIn, 0);
      const completion = ledger.reduce((n, r) => n + r.tokensOut, 0);
      const limit = (n: number): string =>
        n > 0 ? t(lang, 'cmd.costLimit', { limit: shortCount(n) }) : '';
      say(
        t(lang, 'cmd.cost', {
          total: shortCount(s.sessionTokens),
          prompt: shortCount(prompt),
          cached: shortCount(s.cachedTokens),
          share: prompt > 0 ? Math.round((100 * s.cachedTokens) / prompt) : 0,
          completion: shortCount(completion),
          hour: shortCount(s.lastHour),
          hourLimit: limit(s.perHour),
          day: shortCount(s.lastDay),
          dayLimit: limit(s.perDay),
        }),
      );
      return 'listen';
    },
  },
  {
    name: 'remind',
    usage: '/remind <when> <what>',
    description: 'command.remind',
    run: ({ ctx, args }) => {
      const { say, lang } = ctx;
      const text = args.trim();
      if (text === '') {
        const pending = ctx.reminders.pending();
        say(
          pending.length === 0
            ? t(lang, 'cmd.remindNone')
            : [
                t(lang, 'cmd.remindList'),
                ...pending.map((r) => `  ${formatDateTime(r.at, lang)}  ${r.what}`),
              ].join('\n'),
        );
        return 'listen';
      }
      // The time is the first word, or the first two for "2026-12-02 09:00" and "in 10m".
      const words = text.split(/\s+/);
      const two = words.length > 2 ? parseWhen(`${words[0]} ${words[1]}`, Date.now()) : undefined;
      const when = two?.ok ? two : parseWhen(words[0]!, Date.now());
      const what = words.slice(two?.ok ? 2 : 1).join(' ');
      if (!when.ok) {
        say(t(lang, 'cmd.remindUsage', { error: when.error }));
        return 'listen';
      }
      const added = ctx.reminders.add(when.at, what);
      if (typeof added === 'string') say(t(lang, 'cmd.remindUsage', { error: added }));
      else say(t(lang, 'cmd.remindSet', { at: formatDateTime(added.at, lang), what: added.what }));
      return 'listen';
    },
  },
  {
    name: 'ledger',
    usage: '/ledger',
    description: 'command.ledger',
    run: ({ ctx }) => {
      const records = ctx.ledger();
      ctx.say(
        records.length === 0
          ? t(ctx.lang, 'cmd.ledgerEmpty')
          : formatLedger(records, ctx.lang).join('\n'),
      );
      return 'listen';
    },
  },
];
