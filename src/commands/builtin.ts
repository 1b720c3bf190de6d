import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createProvider } from '../app/provider.js';
import { exportMarkdown } from '../history/exportMarkdown.js';
import type { ToolKind } from '../tools/types.js';
import type { AfterCommand, CommandCall, SlashCommand } from './table.js';

const KINDS: readonly ToolKind[] = ['read', 'write', 'destructive', 'network', 'process'];
const POLICIES = ['auto', 'ask', 'deny'] as const;

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return ['Commands:', ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.description}`)].join(
    '\n',
  );
}

function approve({ agent, args, say }: CommandCall): AfterCommand {
  const policy = agent.settings.approval;
  const [kind, value] = args.split(/\s+/).filter(Boolean);
  if (kind === undefined) {
    say(
      [
        'Approval policy (this run):',
        ...KINDS.map((k) => `  ${k.padEnd(12)} ${policy[k]}`),
        'Change with /approve KIND auto|ask|deny',
      ].join('\n'),
    );
    return 'listen';
  }
  if (!KINDS.includes(kind as ToolKind) || !POLICIES.includes(value as (typeof POLICIES)[number])) {
    say(
      `usage: /approve KIND POLICY, where KIND is one of ${KINDS.join(', ')} and POLICY one of ${POLICIES.join(', ')}`,
    );
    return 'listen';
  }
  policy[kind as ToolKind] = value as (typeof POLICIES)[number];
  say(
    `${kind} tools: ${value} for the rest of this run (set "approval" in config.json to keep it)`,
  );
  return 'listen';
}

export const COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    usage: '/help',
    description: 'list the commands',
    run: ({ say }) => (say(helpText()), 'listen'),
  },
  {
    name: 'stop',
    usage: '/stop',
    description: 'stop thinking and wait for you',
    run: () => 'listen',
  },
  {
    name: 'pause',
    usage: '/pause',
    description: 'pause autonomy (it still answers you)',
    run: ({ agent, say }) => {
      agent.pause();
      say('paused: autonomy is off; messages still get an answer. /resume or Ctrl+P to go on.');
      return 'keep';
    },
  },
  {
    name: 'resume',
    usage: '/resume',
    description: 'resume thinking on its own',
    run: ({ agent }) => {
      agent.resume();
      return 'keep';
    },
  },
  {
    name: 'new',
    usage: '/new',
    description: 'start a fresh session (the old one stays on disk)',
    run: async ({ env, say, agent }): Promise<AfterCommand> => {
      const previous = env.currentSessionId();
      const session = await env.sessions.create();
      env.switchSession(session);
      agent.emit({ type: 'messages_replaced', messages: [] });
      say(
        `new session ${session.id}; the previous one (${previous}) is kept: /sessions lists them`,
      );
      return 'listen';
    },
  },
  {
    name: 'compact',
    usage: '/compact',
    description: 'summarise older messages now to free context',
    run: async ({ agent, signal, say }): Promise<AfterCommand> => {
      const text = await agent.compactNow(signal);
      // The hook already told the user when something happened; report only the rest.
      if (!/^compressed|^could not compress/.test(text)) say(text);
      return 'listen';
    },
  },
  {
    name: 'sessions',
    usage: '/sessions',
    description: 'list saved sessions',
    run: async ({ env, say }): Promise<AfterCommand> => {
      const list = await env.sessions.list();
      const current = env.currentSessionId();
      const rows = list.map(
        (s) =>
          `${s.id === current ? '*' : ' '} ${s.id}  ${new Date(s.updatedAt).toLocaleString()}  ${String(s.messageCount).padStart(5)} msgs  ${(s.firstUserLine ?? '').slice(0, 50)}`,
      );
      say(
        rows.length
          ? ['Sessions (newest first; resume one with --session ID):', ...rows].join('\n')
          : 'no sessions yet',
      );
      return 'listen';
    },
  },
  {
    name: 'persona',
    usage: '/persona [NAME]',
    description: 'show or switch the persona',
    run: ({ env, args, say, agent }) => {
      const name = args.trim();
      if (!name) {
        say(
          [
            `Persona: ${env.personas.current.name} (${env.personas.current.id})`,
            ...env.personas.list.map(
              (p) => `  ${p.id.padEnd(14)} ${p.name} / ${p.nameZh}: ${p.description}`,
            ),
          ].join('\n'),
        );
        return 'listen';
      }
      const found = env.personas.switchTo(name);
      if (!found) {
        say(`no persona "${name}". Available: ${env.personas.list.map((p) => p.id).join(', ')}`);
        return 'listen';
      }
      agent.emit({ type: 'settings_changed', persona: found.id });
      say(`persona: ${found.name} (${found.nameZh})`);
      return 'listen';
    },
  },
  {
    name: 'model',
    usage: '/model [NAME]',
    description: 'show or switch the model',
    run: ({ env, args, say, agent }) => {
      const name = args.trim();
      if (!name) {
        say(`model: ${agent.provider.model} at ${env.config.baseURL}`);
        return 'listen';
      }
      agent.setProvider(createProvider(env.config, name));
      say(`model: ${name} (for this run; set "model" in config.json to keep it)`);
      return 'listen';
    },
  },
  {
    name: 'tools',
    usage: '/tools',
    description: 'list the tools and their approval',
    run: ({ agent, say }) => {
      const lines = agent.registry
        .list()
        .map(
          (t) =>
            `  ${agent.registry.signature(t.name).padEnd(44)} ${t.kind.padEnd(11)} ${agent.settings.approval[t.kind]}`,
        );
      say(['Tools (signature, kind, approval):', ...lines].join('\n'));
      return 'listen';
    },
  },
  {
    name: 'trace',
    usage: '/trace',
    description: "show the last turns' phase timings",
    run: ({ agent, say }) => {
      const traces = agent.store.getState().traces.slice(-5);
      if (traces.length === 0) {
        say('no turns yet');
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
    description: 'write a readable transcript of this session',
    run: async ({ env, args, say }): Promise<AfterCommand> => {
      const format = args.trim() || 'md';
      if (format !== 'md') {
        say('/export knows one format: md (Markdown). Try /export md');
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
      say(`transcript written to ${file}`);
      return 'listen';
    },
  },
  {
    name: 'approve',
    usage: '/approve [KIND POLICY]',
    description: 'show or change the approval policy',
    run: approve,
  },
  {
    name: 'clear',
    usage: '/clear',
    description: 'clear the screen (the history is kept)',
    run: ({ agent }) => {
      agent.emit({ type: 'messages_replaced', messages: [] });
      return 'listen';
    },
  },
  {
    name: 'exit',
    usage: '/exit',
    description: 'quit Cogito',
    run: ({ agent }) => {
      agent.requestExit();
      return 'listen';
    },
  },
];
