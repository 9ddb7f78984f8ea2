/**
 * `npm start`'s flags and local checks: a mistyped or valueless flag is an error with the usage
 * text, never a silent offline run; a `--url` trigger is refused before anything is built or sent
 * when its URL, message, context or AUTOMATION_SIGNING_SECRET cannot make a valid request, in the
 * terms of what the user set; the node's own messages are put in those terms too.
 */
import { describe, expect, it } from 'vitest';

import { parseWebhookUrl } from '../../credentials/common/webhookUrl';
import { USAGE, UsageError, inCliTerms, parseDemoArgs } from '../../dev/demoCli';
import { BUSY_QUIET_MS } from '../../dev/simulator';

const SECRET = 'cli_test_secret_5e1b';
const ENV = { AUTOMATION_SIGNING_SECRET: SECRET };
const URL = 'https://svc.example/webhooks/cloud/a1';

/** The flags as npm start and the demo read them: with the credential's URL rules. */
const parse = (argv: string[], env: NodeJS.ProcessEnv) => parseDemoArgs(argv, env, parseWebhookUrl);

describe('npm start: flags', () => {
	it('no flags runs the examples offline; --serve and --port keep their meaning', () => {
		expect(parse([], {})).toEqual({ kind: 'examples', port: 0 });
		expect(parse(['--serve', '--port', '5800'], {})).toEqual({
			kind: 'serve',
			port: 5800,
			fixedSecret: false,
		});
		expect(parse(['--help'], {})).toEqual({ kind: 'help' });
		expect(parse(['-h'], {})).toEqual({ kind: 'help' });
	});

	it('--serve takes a fixed secret, a rate limit and a busy spell, to try failures in the editor', () => {
		expect(parse(['--serve', '--fixed-secret', '--per-second', '5', '--busy', '2.5'], {})).toEqual({
			kind: 'serve',
			port: 0,
			fixedSecret: true,
			perSecond: 5,
			busySeconds: 2.5,
		});
	});

	it("--busy's usage says a spell begins again after the simulator's quiet while", () => {
		expect(USAGE.replace(/\s+/g, ' ')).toContain(
			`and again from the first after ${BUSY_QUIET_MS / 1000} s without any`,
		);
	});

	it('--serve takes a quota and how to tell it; --quota-headers alone, or a quota it cannot read, is an error', () => {
		expect(parse(['--serve', '--quota', '20/30', '--quota-headers', 'ratelimit'], {})).toEqual({
			kind: 'serve',
			port: 0,
			fixedSecret: false,
			quota: { limit: 20, windowSeconds: 30, form: 'ratelimit' },
		});
		expect(() => parse(['--serve', '--quota-headers', 'draft'], {})).toThrow(
			'--quota-headers is only used with --quota',
		);
		expect(() => parse(['--serve', '--quota', '20'], {})).toThrow(/^--quota must be/);
		expect(() => parse(['--quota', '20/30'], {})).toThrow('--quota is only used with --serve');
	});

	it('only --url asks for the URL rules (npm start compiles them for a --url alone)', () => {
		const unused = () => {
			throw new Error('the URL rules were asked for');
		};
		for (const argv of [[], ['--help'], ['--serve', '--port', '5800'], ['--message', 'x']]) {
			expect(() => parseDemoArgs(argv, ENV, unused)).not.toThrow('the URL rules were asked for');
		}
		expect(() => parseDemoArgs(['--url', URL, '--message', 'x'], ENV, unused)).toThrow(
			'--url: the URL rules were asked for',
		);
	});

	it('--url and --url= both work, with the message and context the user gives and the secret from the environment', () => {
		const expected = {
			kind: 'trigger',
			url: URL,
			message: 'Summarise',
			context: { id: 7 },
			signingSecret: SECRET,
		};
		expect(parse(['--url', URL, '--message', 'Summarise', '--context', '{"id":7}'], ENV)).toEqual(
			expected,
		);
		expect(parse([`--url=${URL}`, '--message=Summarise', '--context={"id":7}'], ENV)).toEqual(
			expected,
		);
	});

	it.each([
		[['--urll', 'x'], /^Unknown option '--urll'/],
		[['--url'], /argument missing/],
		[['--url='], /^--url: The webhook URL is empty/],
		[['--url', 'svc.example/webhooks/cloud/a1', '--message', 'x'], /^--url: .* is not a valid URL/],
		[
			['--url', 'https://svc.example/hooks/a1', '--message', 'x'],
			/^--url: The webhook URL path "\/hooks\/a1" does not contain \/webhooks\/cloud\//,
		],
		[['--url', `${URL}?x=1`, '--message', 'x'], /^--url: .*must not have a query string/],
		[['--url', URL], /give its instruction with --message/],
		[['--url', URL, '--message', ' '], /^--message is empty/],
		[['--url', URL, '--message', 'x', '--context', '[1]'], /^--context must be a JSON object/],
		[['--url', URL, '--message', 'x', '--context', '{"a":'], /^--context is not valid JSON/],
		[['--message', 'x'], /only used with --url/],
		[['--url', URL, '--message', 'x', '--serve'], /not used/],
		[['extra'], /positional/i],
		[['--port', 'abc'], /--port must be a port number/],
		[['--busy', '5'], /^--busy is only used with --serve/],
		[['--fixed-secret'], /^--fixed-secret is only used with --serve/],
		[['--url', URL, '--message', 'x', '--per-second', '5'], /^--per-second is not used/],
		[['--serve', '--busy', '0'], /^--busy must be a number above 0, got "0"/],
		[['--serve', '--busy', 'soon'], /^--busy must be a number above 0, got "soon"/],
		[['--serve', '--per-second=-1'], /^--per-second must be a number above 0/],
		[['--serve', '--per-second', '2.5'], /^--per-second must be a whole number/],
	])('%j is a usage error naming the flag', (argv, message) => {
		expect(() => parse(argv, ENV)).toThrow(UsageError);
		expect(() => parse(argv, ENV)).toThrow(message);
	});

	it.each([
		['not set', {}, /^Set AUTOMATION_SIGNING_SECRET to the automation's signing secret/],
		['empty', { AUTOMATION_SIGNING_SECRET: '' }, /^Set AUTOMATION_SIGNING_SECRET/],
		[
			'padded with a space',
			{ AUTOMATION_SIGNING_SECRET: ` ${SECRET}` },
			/^AUTOMATION_SIGNING_SECRET starts or ends with whitespace/,
		],
		[
			'ending in a line break',
			{ AUTOMATION_SIGNING_SECRET: `${SECRET}\n` },
			/^AUTOMATION_SIGNING_SECRET starts or ends with whitespace/,
		],
	])(
		'AUTOMATION_SIGNING_SECRET %s: a usage error naming the variable, without its value',
		(_, env, message) => {
			const attempt = () => parse(['--url', URL, '--message', 'x'], env);
			expect(attempt).toThrow(UsageError);
			expect(attempt).toThrow(message);
			try {
				attempt();
			} catch (error) {
				expect((error as Error).message).not.toContain(SECRET);
				expect((error as Error).message).not.toMatch(/credential|n8n/i);
			}
		},
	);
});

describe("the node's messages in the CLI user's terms", () => {
	it.each([
		[
			"the clocks agree, so the signing secret is the likely cause. Copy it again from this automation's Webhook details into the credential.",
			"the clocks agree, so the signing secret is the likely cause. Copy it again from this automation's Webhook details into AUTOMATION_SIGNING_SECRET.",
		],
		[
			"If the automation's webhook URL has changed, copy the new one from its Webhook details into the credential.",
			"If the automation's webhook URL has changed, give the new one with --url.",
		],
		[
			"Check the host name in the credential's webhook URL, and the DNS of the machine running n8n.",
			'Check the host name in the URL given with --url, and the DNS of this machine.',
		],
		[
			"Check that the credential's signing secret is the one shown in this automation's Webhook details",
			"Check that AUTOMATION_SIGNING_SECRET is the one shown in this automation's Webhook details",
		],
		[
			"Check the credential's webhook URL and this item's data.",
			'Check the URL given with --url and the --message and --context given.',
		],
	])('%j', (node, cli) => {
		expect(inCliTerms(node)).toBe(cli);
	});
});
