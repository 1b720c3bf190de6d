/**
 * Every UI string in English. Keys are grouped by area with dotted names; `{name}` marks a
 * value filled in by `t()`. The Chinese table in zh.ts must have exactly these keys and the
 * same placeholders (type-checked and tested).
 */
export const en = {
  'app.name': 'Cogito',
  'app.tagline': 'A local, always-on AI agent in your terminal',

  // Machine states: short labels for the status bar.
  'state.THINKING': 'Thinking',
  'state.AWAITING_INPUT': 'Your turn',
  'state.PAUSED': 'Paused',
  'state.AWAITING_APPROVAL': 'Needs approval',

  // Status bar.
  'status.persona': 'Persona',
  'status.model': 'Model',
  'status.workspace': 'Workspace',
  'status.cycle': 'Cycle',
  'status.tokens': 'Tokens',
  'status.budget': 'Budget',
  'status.cycleOf': '{n}/{max}',
  'status.cycleUnlimited': '{n}/∞',
  'status.budgetOf': '{used}/{limit} per hour',
  'status.budgetOff': 'off',
  'status.retryIn': 'retry in {seconds}s',

  // Pane titles.
  'pane.reasoning': 'Reasoning',
  'pane.conversation': 'Conversation',
  'pane.tools': 'Tools',
  'pane.input': 'Input',

  // Input box.
  'input.placeholder': 'Type a message, or / for commands',
  'input.placeholderThinking': 'Press any key to interrupt and talk',
  'input.placeholderPaused': 'Paused: type a message, or /resume',

  // Key hints (the key itself is shown by the keybinding table).
  'hint.send': 'send',
  'hint.interrupt': 'interrupt',
  'hint.pause': 'pause',
  'hint.resume': 'resume',
  'hint.help': 'help',
  'hint.quit': 'quit',
  'hint.scroll': 'scroll',
  'hint.focus': 'switch pane',
  'hint.expand': 'expand',
  'hint.collapse': 'collapse',
  'hint.approve': 'allow',
  'hint.deny': 'deny',
  'hint.always': 'always',
  'hint.close': 'close',
  'hint.select': 'select',
  'hint.back': 'back',
  'hint.newline': 'new line',

  // Help overlay.
  'help.title': 'Help: keys and commands',
  'help.keys': 'Keys',
  'help.commands': 'Commands',
  'help.close': 'Press Esc to close',

  // Tool approval.
  'approval.title': 'Approval needed',
  'approval.prompt': 'Allow {tool}? y = yes, n = no, a = always for this run',
  'approval.kind': 'Kind: {kind}',
  'approval.reason': 'Why it asks: {reason}',
  'approval.allowed': 'Allowed {tool}',
  'approval.denied': 'Denied {tool}',
  'approval.always': 'Allowing {tool} without asking for the rest of this run',
  'approval.policyDenied':
    '{tool} is blocked: the approval policy for {kind} tools is "deny" (approval.{kind} in config.json)',

  // Tool log.
  'tool.running': 'running',
  'tool.ok': 'done',
  'tool.failed': 'failed',
  'tool.duration': '{ms} ms',
  'tool.truncated': '{cut} characters cut',
  'tool.noCalls': 'No tool calls yet',

  // Why the agent paused by itself.
  'pause.user': 'Paused. Resume with the pause key or /resume.',
  'pause.cycleLimit': 'Paused: reached the limit of {max} autonomous cycles.',
  'pause.tokenBudget': 'Paused: token budget reached ({used} of {limit} tokens this hour).',
  'pause.loopGuard': 'Paused: loop guard, the same call was repeated ({call}).',
  'pause.apiFailures': 'Paused: {count} API failures in a row. Last error: {error}',
  'pause.resumeHint': 'Press the pause key or type /resume to continue.',
  'pause.resumed': 'Resumed.',

  // Interrupts.
  'interrupted.marker': 'interrupted',
  'interrupted.notice': 'Interrupted. Go ahead, I am listening.',

  // Errors and notices.
  'error.prefix': 'Error',
  'error.unexpected': 'Unexpected error: {message}',
  'error.provider': 'The model request failed: {message}',
  'error.retrying': 'Retrying in {seconds}s (attempt {attempt} of {max})',
  'error.noApiKey': 'No API key is set. Run the setup, or set COGITO_API_KEY.',
  'error.noModelPath':
    'No model file is set for the local provider: add "modelPath" to config.json.',
  'error.config': 'The settings in {file} have a problem.',
  'error.unknownCommand': 'Unknown command {command}. Type /help for the list.',
  'error.commandArgs': 'Usage: {usage}',
  'error.personaNotFound': 'No persona called "{name}". Available: {list}',
  'error.sessionNotFound': 'No session called "{name}". Type /sessions for the list.',
  'error.saveFailed': 'Could not save {what}: {message}',
  'error.compressFailed': 'Summarising older messages failed; they are kept as they are.',
  'error.toolFailed': '{tool} failed: {message}',
  'error.terminalTooSmall':
    'The terminal is too small ({columns}×{rows}). Make it at least {minColumns}×{minRows}.',

  // Slash commands: one line each for /help.
  'command.help': 'Show keys and commands',
  'command.stop': 'Stop the current turn and wait for you',
  'command.pause': 'Pause autonomous thinking',
  'command.resume': 'Resume autonomous thinking',
  'command.new': 'Start a new session (the old one stays on disk)',
  'command.compact': 'Summarise older messages now to free context',
  'command.sessions': 'List saved sessions',
  'command.persona': 'Show or switch the persona: /persona <name>',
  'command.model': 'Show or switch the model: /model <name>',
  'command.tools': 'List the tools and their approval policy',
  'command.trace': "Show the last turn's phases and timings",
  'command.approve': 'Show or set the approval policy: /approve <kind> <auto|ask|deny>',
  'command.clear': 'Clear the screen (history is kept)',
  'command.exit': 'Save and quit',

  // Command feedback.
  'notice.sessionNew': 'Started a new session. The previous one is saved.',
  'notice.sessionResumed': 'Resumed the last session ({count} messages).',
  'notice.compacted': 'Summarised {count} older messages.',
  'notice.nothingToCompact': 'Nothing to summarise yet.',
  'notice.personaSwitched': 'Persona: {name}',
  'notice.modelSwitched': 'Model: {model}',
  'notice.approvalSet': 'Approval for {kind} tools: {policy}',
  'notice.noTrace': 'No turn has run yet.',
  'notice.noSessions': 'No saved sessions yet.',
  'notice.goodbye': 'Bye. Your session is saved.',

  // Setup wizard (first run).
  'setup.title': 'Welcome to Cogito',
  'setup.intro': 'A few questions and Cogito is ready. You can change any answer later in {file}.',
  'setup.step': 'Step {n} of {total}',
  'setup.language': 'Language',
  'setup.provider': 'Where should the model run?',
  'setup.providerRemote':
    'An OpenAI-compatible service (DeepSeek, OpenAI, Qwen, Moonshot, Ollama, LM Studio...)',
  'setup.providerLocal': 'A local GGUF model file, on this machine',
  'setup.baseUrl': 'Service address (base URL)',
  'setup.baseUrlHint': 'e.g. https://api.deepseek.com/v1, or http://localhost:11434/v1 for Ollama',
  'setup.apiKey': 'API key',
  'setup.apiKeyHint':
    'Saved only in {file}, readable by your user alone, and never shown. Leave empty if the server needs none.',
  'setup.model': 'Model name',
  'setup.modelHint': 'e.g. deepseek-chat, gpt-4o, qwen-plus, llama3.1',
  'setup.modelPath': 'Path to the .gguf model file',
  'setup.workspace': 'Workspace folder (where Cogito may read and write)',
  'setup.persona': 'Choose a persona',
  'setup.checking': 'Checking the connection...',
  'setup.checkOk': 'Connected.',
  'setup.checkFailed': 'Could not reach the model: {message}',
  'setup.confirm': 'Save and start?',
  'setup.saved': 'Saved to {file}.',
  'setup.invalid': '{field}: {problem}',

  // The full-screen app (components/): key descriptions for the help overlay and hints.
  'hint.complete': 'complete',
  'hint.history': 'history',
  'keys.cancel': 'Stop the turn in flight (while busy); press again within 2 s to quit',
  'keys.quitCtrlC': 'Quit (when idle)',
  'keys.redraw': 'Redraw the screen',
  'keys.togglePause': 'Pause or resume autonomous thinking',
  'keys.help': 'Show this help',
  'keys.closeHelp': 'Close the help',
  'keys.closeDetail': 'Close the tool call details',
  'keys.scrollOverlay': 'Scroll the help or the details',
  'keys.approveYes': 'Allow the tool call',
  'keys.approveNo': 'Deny the tool call',
  'keys.approveAlways': 'Allow this tool for the rest of the run',
  'keys.helpQuestion': 'Show this help (when the input is empty)',
  'keys.complete': 'Complete a /command',
  'keys.focusNext': 'Next pane: input, conversation, reasoning, tools',
  'keys.focusPrev': 'Previous pane',
  'keys.selectTool': 'Tool log: select a call',
  'keys.expandTool': 'Tool log: show the call in full',
  'keys.interrupt': 'Stop thinking and listen',
  'keys.submitThinking': 'While thinking: stop and send what you typed',
  'keys.interruptAndType': 'While thinking: stop, and start your message with that key',
  'keys.focusInput': 'Back to the input box',
  'keys.quitWord': 'Typing exit or /exit quits',
  'keys.submit': 'Send the message (empty: resume thinking)',
  'keys.newline': 'New line in the message',
  'keys.history': 'Earlier and later messages you sent',
  'keys.cursor': 'Move the cursor',
  'keys.lineStart': 'Start of the line',
  'keys.lineEnd': 'End of the line',
  'keys.killToStart': 'Delete to the start of the line',
  'keys.killWordBack': 'Delete the word before the cursor',
  'keys.killToEnd': 'Delete to the end of the line',
  'keys.scrollLine': 'Scroll the focused pane',
  'keys.scrollPage': 'Scroll a page (the conversation, from the input box)',
  'keys.scrollEnds': 'Top / bottom of the focused pane',
  'keys.stopAnswer': 'Stop the answer streaming while paused',
  'keys.deleteBack': 'Delete the character before the cursor',
  'keys.type': 'Typing goes to the input box',
  'status.context': 'Context',
  'status.session': 'Session',
  'reply.summary': 'Summary of earlier messages',
  'reply.empty': 'Nothing here yet. Type a message, or let it think.',
  'tool.denied': 'denied',
  'tool.skipped': 'skipped',
  'tool.call': 'Call',
  'tool.arguments': 'Arguments',
  'tool.result': 'Result',
  'quit.again': 'Press Ctrl+C again to quit',
  'tui.notATerminal':
    'The full-screen app needs a terminal. For scripts and pipes use print mode: cogito -p "PROMPT"',
} as const;

/** Every message key. */
export type MessageKey = keyof typeof en;
