/**
 * The network egress guard: before any byte is sent, the destination of every request (and
 * of every redirect hop, since each hop is its own request) is resolved and checked, and the
 * connection is then made to the address that was checked, so a second DNS answer cannot
 * swap in a local one. The user opts in to private destinations with `fetch.allowHosts`
 * (named hosts, optionally with a port) or `fetch.allowPrivateNetwork` (all of them).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ToolFailure } from './errors.js';
import { classifyAddress } from '../../safety/addresses.js';
import { bareHost, parseAllowEntry } from '../../config/allowHosts.js';

/** What the user allowed beyond the public internet (config.json → `fetch`). */
export interface EgressPolicy {
  /** Every private, loopback and link-local destination is allowed (default false). */
  allowPrivateNetwork?: boolean;
  /** `host` or `host:port` entries reachable even when private, e.g. `localhost:8888`. */
  allowHosts?: readonly string[];
}

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses; injectable so tests can play DNS. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

const systemResolver: Resolver = async (host) => {
  const answers = await dnsLookup(host, { all: true, verbatim: true });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** Whether the policy names this URL's host (and port, when the entry has one). */
function allowedByList(url: URL, policy: EgressPolicy): boolean {
  const host = bareHost(url);
  const port = portOf(url);
  return (policy.allowHosts ?? []).some((entry) => {
    const allowed = parseAllowEntry(entry);
    return allowed !== undefined && allowed.host === host && (allowed.port ?? port) === port;
  });
}

/** The sentence the model sees: the address, what it is, and the two settings. */
function refusal(url: URL, address: string, what: string): ToolFailure {
  const host = bareHost(url);
  const entry = `${url.hostname}:${portOf(url)}`;
  const via = host === address ? '' : ` (${host} resolves to it)`;
  return new ToolFailure(
    'denied',
    `Refused to connect to ${address}${via}: it is ${what}, and web tools only reach public ` +
      `addresses, so a page cannot make Cogito read the user's own machine or network. ` +
      `If the user wants this host reachable, they add "${entry}" to fetch.allowHosts in ` +
      `config.json (or set fetch.allowPrivateNetwork to true). Do not retry another spelling.`,
  );
}

/** Checks destinations against a policy; one per set of web tools. */
export class EgressGuard {
  constructor(
    private readonly policy: EgressPolicy = {},
    private readonly resolve: Resolver = systemResolver,
  ) {}

  /**
   * Resolves `url`'s host and returns the address to connect to. Throws a `denied`
   * {@link ToolFailure} naming the address and the setting when any answer is not public
   * (one private answer among public ones is enough to refuse: the resolver could rotate),
   * and a `network` failure when the name does not resolve.
   */
  async check(url: URL): Promise<ResolvedAddress> {
    const host = bareHost(url);
    const open = this.policy.allowPrivateNetwork === true || allowedByList(url, this.policy);
    const literal = isIP(host);
    let answers: ResolvedAddress[];
    if (literal !== 0) answers = [{ address: host, family: literal === 6 ? 6 : 4 }];
    else {
      try {
        answers = await this.resolve(host);
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        throw new ToolFailure(
          'network',
          `Could not resolve ${host}${typeof code === 'string' ? ` (${code})` : ''}: check the address.`,
        );
      }
    }
    if (answers.length === 0) {
      throw new ToolFailure('network', `Could not resolve ${host}: it has no address.`);
    }
    if (open) return answers[0]!;
    for (const answer of answers) {
      const verdict = classifyAddress(answer.address);
      if (!verdict.public) throw refusal(url, verdict.address, verdict.what);
    }
    return answers[0]!;
  }
}
