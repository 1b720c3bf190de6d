import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportMarkdown } from '../history/exportMarkdown.js';
import { t } from '../i18n/messages.js';
import type { ToolKind } from '../tools/types.js';
import { MODEL_COMMAND } from './model.js';
import type { AfterCommand, CommandCall, SlashCommand } from './table.js';

const KINDS: readonly ToolKind[] = ['read', 'write', 'destructive', 'network', 'process'];
const POLICIES = ['auto', 'ask', 'deny'] as const;

function helpText(lang: CommandCall['lang']): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return [
    t(lang, 'cmd.helpTitle'),
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${t(lang, c.description)}`),
  ].join('\n');
}

function approve({ agent, args, say, lang }: CommandCall): AfterCommand {
  const policy = agent.settings.approval;
  const [kind, value] = args.split(/\s+/).filter(Boolean);
  if (kind === undefined) {
    say(
      [
        t(lang, 'cmd.approveTitle'),
        ...KINDS.map((k) => `  ${k.padEnd(12)} ${policy[k]}`),
        t(lang, 'cmd.approveHint'),
      ].join('\n'),
    );
    return 'listen';
  }
  if (!KINDS.includes(kind as ToolKind) || !POLICIES.includes(value as (typeof POLICIES)[number])) {
    say(t(lang, 'cmd.approveUsage', { kinds: KINDS.join(', '), policies: POLICIES.join(', ') }));
    return 'listen';
  }
  policy[kind as ToolKind] = value as (typeof POLICIES)[number];
  say(t(lang, 'cmd.approveSet', { kind, policy: value as string }));
  return 'listen';
}

export const COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    usage: '/help',
    description: 'command.help',
    run: ({ say, lang }) => (say(helpText(lang)), 'listen'),
  },
  {
    name: 'stop',
    usage: '/stop',
    description: 'command.stop',
    run: () => 'listen',
  },
  {
    name: 'pause',
    usage: '/pause',
    description: 'command.pause',
    run: ({ agent, say, lang }) => {
      agent.pause();
      say(t(lang, 'cmd.paused'));
      return 'keep';
    },
  },
  {
    name: 'resume',
    usage: '/resume',
    description: 'command.resume',
    run: ({ agent }) => {
      agent.resume();
      return 'keep';
    },
  },
  {
    name: 'new',
    usage: '/new',
    description: 'command.new',
    run: async ({ env, say, agent, lang }): Promise<AfterCommand> => {
      const previous = env.currentSessionId();
      const session = await env.sessions.create();
      env.switchSession(session);
      agent.emit({ type: 'messages_replaced', messages: [] });
      say(t(lang, 'cmd.newSession', { id: session.id, previous }));
      return 'listen';
    },
  },
  {
    name: 'compact',
    usage: '/compact',
    description: 'command.compact',
    run: async ({ agent, signal, say }): Promise<AfterCommand> => {
      // The hook tells the user what happened; it returns text only when it did not.
      const text = await agent.compactNow(signal);
      if (text) say(text);
      return 'listen';
    },
  },
  {
    name: 'sessions',
    usage: '/sessions',
    description: 'command.sessions',
    run: async ({ env, say, lang }): Promise<AfterCommand> => {
      const list = await env.sessions.list();
      const current = env.currentSessionId();
      const rows = list.map(
        (s) =>
          `${s.id === current ? '*' : ' '} ${s.id}  ${new Date(s.updatedAt).toLocaleString()}  ${t(lang, 'cmd.messages', { count: String(s.messageCount).padStart(5) })}  ${(s.firstUserLine ?? '').slice(0, 50)}`,
      );
      say(
        rows.length
          ? [t(lang, 'cmd.sessionsTitle'), ...rows].join('\n')
          : t(lang, 'cmd.noSessions'),
      );
      return 'listen';
    },
  },
  {
    name: 'persona',
    usage: '/persona [NAME]',
    description: 'command.persona',
    run: ({ env, args, say, agent, lang }) => {
      const name = args.trim();
      if (!name) {
        say(
          [
            t(lang, 'cmd.personaNow', {
              name: lang === 'zh' ? env.personas.current.nameZh : env.personas.current.name,
              id: env.personas.current.id,
            }),
            ...env.personas.list.map(
              (p) =>
                `  ${p.id.padEnd(14)} ${p.name} / ${p.nameZh}: ${lang === 'zh' ? (p.descriptionZh ?? p.description) : p.description}`,
            ),
          ].join('\n'),
        );
        return 'listen';
      }
      const found = env.personas.switchTo(name);
      if (!found) {
        say(
          t(lang, 'cmd.personaMissing', {
            name,
            list: env.personas.list.map((p) => p.id).join(', '),
          }),
        );
        return 'listen';
      }
      agent.emit({ type: 'settings_changed', persona: found.id });
      say(t(lang, 'cmd.personaSet', { name: found.name, nameZh: found.nameZh }));
      return 'listen';
    },
  },
  MODEL_COMMAND,
  {
    name: 'tools',
    usage: '/tools',
    description: 'command.tools',
    run: ({ agent, say, lang }) => {
      const lines = agent.registry
        .list()
        .map(
          (tool) =>
            `  ${agent.registry.signature(tool.name).padEnd(44)} ${tool.kind.padEnd(11)} ${agent.settings.approval[tool.kind]}`,
        );
      say([t(lang, 'cmd.toolsTitle'), ...lines].join('\n'));
      return 'listen';
    },
  },
  {
    name: 'trace',
    usage: '/trace',
    description: 'command.trace',
    run: ({ agent, say, lang }) => {
      const traces = agent.store.getState().traces.slice(-5);
      if (traces.length === 0) {
        say(t(lang, 'cmd.noTurns'));
        return 'listen';
      }
      const out = traces.map(
        (t) =>
          `turn ${t.turnId} (${t.trigger}, ${t.outcome}, ${t.durationMs} ms): ` +
          t.phases
            .map(
              (p) => `${p.phase} ${p.durationMs}ms${p.outcome === 'next' ? '' : ` ${p.outcome}`}`,
            )
            .join(' → '),
      );
      say(out.join('\n'));
      return 'listen';
    },
  },
  {
    name: 'export',
    usage: '/export md',
    description: 'command.export',
    run: async ({ env, args, say, lang }): Promise<AfterCommand> => {
      const format = args.trim() || 'md';
      if (format !== 'md') {
        say(t(lang, 'cmd.exportFormat'));
        return 'listen';
      }
      const session = env.currentSession();
      const text = exportMarkdown(session.id, [
        ...session.archivedMessages(),
        ...session.messages(),
      ]);
      await mkdir(env.exportsDir, { recursive: true });
      const file = path.join(env.exportsDir, `${session.id}.md`);
      await writeFile(file, text, { mode: 0o600 });
      say(t(lang, 'cmd.exportWritten', { file }));
      return 'listen';
    },
  },
  {
    name: 'approve',
    usage: '/approve [KIND POLICY]',
    description: 'command.approve',
    run: approve,
  },
  {
    name: 'clear',
    usage: '/clear',
    description: 'command.clear',
    run: ({ agent }) => {
      agent.emit({ type: 'messages_replaced', messages: [] });
      return 'listen';
    },
  },
  {
    name: 'exit',
    usage: '/exit',
    description: 'command.exit',
    run: ({ agent }) => {
      agent.requestExit();
      return 'listen';
    },
  },
];
