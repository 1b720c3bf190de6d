import React from 'react';
import { Box, Text } from 'ink';
import type { Row, Tone } from './rows.js';
import { Spinner } from '../Spinner.js';
import { displayWidth, truncate } from '../text/wrap.js';
import { hyperlink, terminalHyperlinks } from '../markdown/hyperlinks.js';
import { truncateSpans, type Span } from '../markdown/spans.js';

const STYLE: Record<
  Tone,
  { color?: string; dimColor?: boolean; bold?: boolean; inverse?: boolean; italic?: boolean }
> = {
  plain: {},
  user: { color: 'cyan' },
  agent: {},
  call: { color: 'magenta' },
  dim: { dimColor: true },
  reasoning: { dimColor: true, italic: true },
  notice: { color: 'blue' },
  warn: { color: 'yellow' },
  error: { color: 'red' },
  ok: { color: 'green' },
  label: { bold: true },
  selected: { inverse: true },
};

/** Exactly `height` rows (padded with blanks), each cut to `width` columns. */
export function PaneRows({
  rows,
  height,
  width,
}: {
  rows: readonly Row[];
  height: number;
  width: number;
}): React.JSX.Element {
  const shown = rows.slice(0, height);
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {shown.map((r, i) => (
        <Text key={i} wrap="truncate-end" {...STYLE[r.tone]}>
          {r.spans ? <SpanRow spans={r.spans} width={width} /> : null}
          {r.spans ? null : r.text === '' ? ' ' : truncate(r.text, width)}
        </Text>
      ))}
    </Box>
  );
}

/** A styled row (rendered Markdown) cut to `width` columns. */
function SpanRow({ spans, width }: { spans: readonly Span[]; width: number }): React.JSX.Element {
  const cut = truncateSpans(spans, width);
  if (cut.length === 0) return <Text> </Text>;
  const links = terminalHyperlinks();
  return (
    <>
      {cut.map((s, i) => {
        const { link, ...style } = s.style ?? {};
        return (
          <Text key={i} {...style}>
            {link && links ? hyperlink(s.text, link) : s.text}
          </Text>
        );
      })}
    </>
  );
}

/** Stands for the spinner while the rule is measured (one column, never in a title). */
const SPIN_SLOT = '\u2800';

/**
 * A pane's title as a rule: `── Conversation ──────── ↑12 ──`. The focused pane's rule is
 * heavy and bright; `right` is a small note at the end (scroll position), and `spinner` puts
 * a turning spinner before it (a leaf of its own: its ticks re-render nothing else).
 */
export function TitleRule({
  title,
  width,
  focused,
  right = '',
  spinner = false,
  color,
}: {
  title: string;
  width: number;
  focused: boolean;
  right?: string;
  spinner?: boolean;
  color?: string;
}): React.JSX.Element {
  // The focused pane's rule is heavy, so focus shows without colour too.
  const line = focused ? '━' : '─';
  const head = `${line}${line} ${title} `;
  // The spinner takes one column; a placeholder of that width holds its place while fitting.
  const note = [spinner ? SPIN_SLOT : '', right].filter(Boolean).join(' ');
  const tail = note ? ` ${note} ${line}${line}` : '';
  const fill = Math.max(0, width - displayWidth(head) - displayWidth(tail));
  const full = head + line.repeat(fill) + tail;
  const style = { bold: focused, color: color ?? (focused ? 'cyan' : 'gray') };
  const at = full.indexOf(SPIN_SLOT);
  if (!spinner || displayWidth(full) > width || at === -1) {
    return (
      <Text wrap="truncate-end" {...style}>
        {truncate(full.replace(SPIN_SLOT, ' '), width)}
      </Text>
    );
  }
  return (
    <Text wrap="truncate-end" {...style}>
      {full.slice(0, at)}
      <Spinner color={style.color} />
      {full.slice(at + SPIN_SLOT.length)}
    </Text>
  );
}
