import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { exportMarkdown } from '../history/exportMarkdown.js';
import { t } from '../i18n/messages.js';
import {
  APPROVAL_POLICIES,
  TOOL_KINDS,
  type Tool,
  type ToolApprovalPolicy,
  type ToolKind,
} from '../tools/types.js';
import { mcpCommand } from './mcp.js';
import { MODEL_COMMAND } from './model.js';
import type { AfterCommand, CommandContext } from './context.js';
import { commandRows, type CommandCall, type SlashCommand } from './table.js';
import { sessionList } from './sessionList.js';
import { matchSession } from '../history/sessionChoices.js';
import { CHANGE_COMMANDS } from './changes.js';
import { ALWAYS_ON_COMMANDS } from './alwaysOnCommands.js';
import { invokedAs } from '../core/invokedAs.js';
import { INSTRUCTION_COMMANDS } from './instructions.js';
import { MEMORY_COMMAND } from './memory.js';
import { SKILLS_COMMAND } from './skills.js';

const isKind = (word: string): word is ToolKind => (TOOL_KINDS as readonly string[]).includes(word);
const isPolicy = (word: string): word is ToolApprovalPolicy =>
  (APPROVAL_POLICIES as readonly string[]).includes(word);

/** A tool's effective policy: its own (an MCP server's trust or override) or its kind's. */
function toolPolicy(tool: Tool, kindPolicy: ToolApprovalPolicy): ToolApprovalPolicy {
  return tool.approvalPolicy?.(kindPolicy).policy ?? kindPolicy;
}

/** `/help`: every command's usage and description, aligned. */
function helpText(lang: CommandContext['lang'], skills: readonly string[] = []): string {
  const rows = commandRows(COMMANDS, lang);
  const width = Math.max(...rows.map((r) => r.usage.length));
  return [
    t(lang, 'cmd.helpTitle'),
    ...rows.map((r) => `  ${r.usage.padEnd(width)}  ${r.description}`),
    // Talking while it works is keys, not a command: named here so /help users find it.
    '',
    t(lang, 'cmd.helpTalk'),
    ...(skills.length > 0
      ? ['', `Skills, run as commands: ${skills.map((n) => `/${n}`).join(' ')}`]
      : []),
  ].join('\n');
}

/**
 * `/approve` shows the policy per tool kind; `/approve KIND POLICY` asks the agent to change
 * one (for this run; the config file is not touched).
 */
function approve({ ctx, args }: CommandCall): AfterCommand {
  const { say, lang } = ctx;
  const policy = ctx.approval();
  const [kind, value] = args.split(/\s+/).filter(Boolean);
  if (kind === undefined) {
    say(
      [
        t(lang, 'cmd.approveTitle'),
        ...TOOL_KINDS.map((k) => `  ${k.padEnd(12)} ${policy[k]}`),
        t(lang, 'cmd.approveHint'),
      ].join('\n'),
    );
    return 'listen';
  }
  if (!isKind(kind) || value === undefined || !isPolicy(value)) {
    const usage = { kinds: TOOL_KINDS.join(', '), policies: APPROVAL_POLICIES.join(', ') };
    say(t(lang, 'cmd.approveUsage', usage));
    return 'listen';
  }
  ctx.setApproval(kind, value);
  say(t(lang, 'cmd.approveSet', { kind, policy: value as string }));
  return 'listen';
}

/**
 * `/persona` lists the personas; `/persona NAME` switches to one from the next request on and
 * keeps the choice in config.json, as the setup wizard does (a failed write says so: then
 * the choice is for this run only).
 */
async function persona({ ctx, args }: CommandCall): Promise<AfterCommand> {
  const { say, lang, personas } = ctx;
  const name = args.trim();
  if (!name) {
    say(
      [
        t(lang, 'cmd.personaNow', {
          name: lang === 'zh' ? personas.current.nameZh : personas.current.name,
          id: personas.current.id,
        }),
        ...personas.list.map(
          (p) =>
            `  ${p.id.padEnd(14)} ${p.name} / ${p.nameZh}: ${lang === 'zh' ? (p.descriptionZh ?? p.description) : p.description}`,
        ),
      ].join('\n'),
    );
    return 'listen';
  }
  const found = ctx.switchPersona(name);
  if (!found) {
    say(t(lang, 'cmd.personaMissing', { name, list: personas.list.map((p) => p.id).join(', ') }));
    return 'listen';
  }
  const saved = await ctx.saveSettings({ persona: found.id });
  say(
    'file' in saved
      ? t(lang, 'cmd.personaSet', { name: found.name, nameZh: found.nameZh, file: saved.file })
      : t(lang, 'cmd.personaRunOnly', {
          name: found.name,
          nameZh: found.nameZh,
          problem: saved.problem,
        }),
  );
  return 'listen';
}

/** `/trace`: the last five turns, each with its phases and how long each took. */
function trace({ ctx }: CommandCall): AfterCommand {
  const traces = ctx.traces().slice(-5);
  if (traces.length === 0) {
    ctx.say(t(ctx.lang, 'cmd.noTurns'));
    return 'listen';
  }
  const out = traces.map(
    (t) =>
      `turn ${t.turnId} (${t.trigger}, ${t.outcome}, ${t.steps > 1 ? `${t.steps} steps, ` : ''}${t.durationMs} ms): ` +
      t.phases
        .map(
          (p, i) =>
            // A tool chain's later steps are marked where they start.
            `${p.step > 1 && t.phases[i - 1]?.step !== p.step ? `[step ${p.step}] ` : ''}` +
            `${p.phase} ${p.durationMs}ms${p.outcome === 'next' ? '' : ` ${p.outcome}`}`,
        )
        .join(' → '),
  );
  ctx.say(out.join('\n'));
  return 'listen';
}

/**
 * `/resume` alone: autonomy back on (the way out of a pause the paused screen names; the
 * screen opens its session picker instead when not paused). `/resume ID` (the whole id or
 * the start of one of this folder's ids) opens that session, as the picker's Enter does.
 */
async function resume({ ctx, args }: CommandCall): Promise<AfterCommand> {
  const { lang } = ctx;
  const typed = args.trim();
  if (typed === '') {
    ctx.resume();
    return 'keep';
  }
  const found = matchSession(await ctx.sessions.list(), typed);
  if (!found.ok) {
    if (found.why === 'elsewhere')
      ctx.say(
        t(lang, 'cmd.resumeElsewhere', {
          cmd: invokedAs(),
          id: typed,
          path: found.session?.workspace ?? t(lang, 'cmd.sessionNoFolder'),
        }),
      );
    else if (found.why === 'ambiguous')
      ctx.say(
        t(lang, 'cmd.resumeAmbiguous', {
          typed,
          count: found.candidates.length,
          ids: found.candidates
            .slice(0, 3)
            .map((s) => s.id)
            .join(', '),
        }),
      );
    else ctx.say(t(lang, 'cmd.resumeNone', { typed }));
    return 'listen';
  }
  const previous = ctx.sessionId();
  if (found.session.id === previous) {
    ctx.say(t(lang, 'cmd.resumeCurrent', { id: previous }));
    return 'listen';
  }
  // The screen shows the opened conversation; the user opening it makes it theirs.
  ctx.switchSession(await ctx.sessions.open(found.session.id));
  ctx.say(t(lang, 'cmd.resumed', { id: found.session.id, previous }));
  return 'listen';
}

/** `/export md`: the whole transcript (archived part first) as Markdown in the exports folder. */
async function exportTranscript({ ctx, args }: CommandCall): Promise<AfterCommand> {
  const format = args.trim() || 'md';
  if (format !== 'md') {
    ctx.say(t(ctx.lang, 'cmd.exportFormat'));
    return 'listen';
  }
  const id = ctx.sessionId();
  const text = exportMarkdown(id, ctx.transcript());
  await mkdir(ctx.exportsDir, { recursive: true });
  const file = path.join(ctx.exportsDir, `${id}.md`);
  await writeFile(file, text, { mode: 0o600 });
  ctx.say(t(ctx.lang, 'cmd.exportWritten', { file }));
  return 'listen';
}

export const COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    usage: '/help',
    description: 'command.help',
    run: ({ ctx }) => (ctx.say(helpText(ctx.lang, ctx.skills?.names())), 'listen'),
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
    run: ({ ctx }) => {
      ctx.pause();
      ctx.say(t(ctx.lang, 'cmd.paused'));
      return 'keep';
    },
  },
  {
    name: 'resume',
    usage: '/resume [ID]',
    description: 'command.resume',
    run: resume,
  },
  {
    name: 'new',
    usage: '/new',
    description: 'command.new',
    run: async ({ ctx }): Promise<AfterCommand> => {
      const previous = ctx.sessionId();
      const session = await ctx.sessions.create();
      // The switch shows the new, empty conversation on the screen.
      ctx.switchSession(session);
      ctx.say(t(ctx.lang, 'cmd.newSession', { id: session.id, previous }));
      return 'listen';
    },
  },
  {
    name: 'compact',
    usage: '/compact',
    description: 'command.compact',
    run: async ({ ctx, signal }): Promise<AfterCommand> => {
      // The compactor tells the user what happened; it returns text only when it did not.
      const text = await ctx.compactNow(signal);
      if (text) ctx.say(text);
      return 'listen';
    },
  },
  {
    name: 'sessions',
    usage: '/sessions',
    description: 'command.sessions',
    run: async ({ ctx }): Promise<AfterCommand> => {
      const { lang } = ctx;
      const list = await ctx.sessions.list();
      ctx.say(list.length ? sessionList(list, ctx.sessionId(), lang) : t(lang, 'cmd.noSessions'));
      return 'listen';
    },
  },
  {
    name: 'persona',
    usage: '/persona [NAME]',
    description: 'command.persona',
    run: persona,
  },
  MODEL_COMMAND,
  {
    name: 'tools',
    usage: '/tools',
    description: 'command.tools',
    run: ({ ctx }) => {
      const policies = ctx.approval();
      const lines = ctx.tools
        .list()
        .map(
          (tool) =>
            `  ${ctx.tools.signature(tool.name).padEnd(44)} ${tool.kind.padEnd(11)} ${toolPolicy(tool, policies[tool.kind])}`,
        );
      ctx.say([t(ctx.lang, 'cmd.toolsTitle'), ...lines].join('\n'));
      return 'listen';
    },
  },
  SKILLS_COMMAND,
  {
    name: 'trace',
    usage: '/trace',
    description: 'command.trace',
    run: trace,
  },
  {
    name: 'export',
    usage: '/export md',
    description: 'command.export',
    run: exportTranscript,
  },
  ...CHANGE_COMMANDS,
  {
    name: 'approve',
    usage: '/approve [KIND POLICY]',
    description: 'command.approve',
    run: approve,
  },
  mcpCommand,
  {
    name: 'clear',
    usage: '/clear',
    description: 'command.clear',
    run: ({ ctx }) => {
      ctx.clearScreen();
      return 'listen';
    },
  },
  {
    name: 'exit',
    usage: '/exit',
    description: 'command.exit',
    run: ({ ctx }) => {
      ctx.quit();
      return 'listen';
    },
  },
  {
    name: 'detach',
    usage: '/detach',
    description: 'command.detach',
    run: ({ ctx }) => {
      ctx.detach();
      return 'listen';
    },
  },
  ...ALWAYS_ON_COMMANDS,
  ...INSTRUCTION_COMMANDS,
  MEMORY_COMMAND,
];
