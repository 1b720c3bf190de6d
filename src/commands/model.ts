/**
 * `/model`: shows the model in use and the models downloaded into `<app home>/models/`;
 * `/model NAME` switches to a downloaded model (by file name) or, for an OpenAI-compatible
 * service, to any model name the service offers. The switch lasts for this run.
 */
import { createProvider } from '../providers/fromConfig.js';
import { t } from '../i18n/messages.js';
import { findInstalled, listInstalledModels } from '../models/installed.js';
import { formatBytes } from '../models/progress.js';
import type { AfterCommand } from './context.js';
import type { CommandCall, SlashCommand } from './table.js';
import { invokedAs } from '../core/invokedAs.js';

async function run({ ctx, args }: CommandCall): Promise<AfterCommand> {
  const { say, lang, config, modelsDir } = ctx;
  const name = args.trim();
  const installed = await listInstalledModels(modelsDir);
  if (!name) {
    const provider = ctx.provider();
    const local = provider.id === 'local';
    const lines = [
      t(lang, 'cmd.modelNow', {
        model: provider.model,
        url: local ? modelsDir : config.baseURL,
      }),
    ];
    if (installed.length > 0) {
      lines.push(t(lang, 'cmd.modelsInstalled', { dir: modelsDir }));
      for (const m of installed) {
        const mark = local && m.file === provider.model ? '●' : ' ';
        lines.push(`  ${mark} ${m.file.padEnd(44)} ${formatBytes(m.bytes)}`);
      }
    } else if (local) {
      lines.push(t(lang, 'cmd.modelsNone', { dir: modelsDir, cmd: invokedAs() }));
    }
    say(lines.join('\n'));
    return 'listen';
  }
  const found = findInstalled(installed, name);
  if (found) {
    ctx.setProvider(createProvider({ ...config, provider: 'local', modelPath: found.path }));
    say(t(lang, 'cmd.modelLocalSet', { model: found.file }));
    return 'listen';
  }
  if (config.provider === 'local') {
    const list = installed.map((m) => m.file).join(', ') || '-';
    say(t(lang, 'cmd.modelNotInstalled', { name, list }));
    return 'listen';
  }
  ctx.setProvider(createProvider(config, name));
  say(t(lang, 'cmd.modelSet', { model: name }));
  return 'listen';
}

/** The `/model` command. */
export const MODEL_COMMAND: SlashCommand = {
  name: 'model',
  usage: '/model [NAME]',
  description: 'command.model',
  run,
};
