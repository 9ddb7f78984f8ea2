/**
 * `npm start`'s flags: a mistyped or valueless flag is an error with the usage text, never a silent
 * offline run; `--url` (or `--url=`) sends exactly one trigger with the user's message and context,
 * and the body printed before sending is the body sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { UsageError, parseDemoArgs, sendOneTrigger, triggerBody } from '../dev/demoCli';
import { Receiver, specViolations } from './support/receiver';

const SECRET = 'cli_test_secret_5e1b';
const PATH = '/webhooks/cloud/auto-cli';

describe('npm start: flags', () => {
	it('no flags runs the examples offline; --serve and --port keep their meaning', () => {
		expect(parseDemoArgs([])).toEqual({ kind: 'examples', port: 0 });
		expect(parseDemoArgs(['--serve', '--port', '5800'])).toEqual({ kind: 'serve', port: 5800 });
		expect(parseDemoArgs(['--help'])).toEqual({ kind: 'help' });
		expect(parseDemoArgs(['-h'])).toEqual({ kind: 'help' });
	});

	it('--url and --url= both work, with the message and context the user gives', () => {
		const expected = {
			kind: 'trigger',
			url: 'https://svc.example/webhooks/cloud/a1',
			message: 'Summarise',
			context: { id: 7 },
		};
		expect(
			parseDemoArgs(['--url', expected.url, '--message', 'Summarise', '--context', '{"id":7}']),
		).toEqual(expected);
		expect(
			parseDemoArgs([`--url=${expected.url}`, '--message=Summarise', '--context={"id":7}']),
		).toEqual(expected);
	});

	it.each([
		[['--urll', 'x'], /Unknown option '--urll'/],
		[['--url'], /argument missing/],
		[['--url='], /must be the automation's webhook URL/],
		[['--url', 'https://svc.example/webhooks/cloud/a1'], /give its instruction with --message/],
		[['--url', 'https://svc.example/webhooks/cloud/a1', '--message', ' '], /The message is empty/],
		[
			['--url', 'https://svc.example/webhooks/cloud/a1', '--message', 'x', '--context', '[1]'],
			/must be a JSON object/,
		],
		[['--message', 'x'], /only used with --url/],
		[['--url', 'https://svc.example/webhooks/cloud/a1', '--message', 'x', '--serve'], /not used/],
		[['extra'], /positional/i],
		[['--port', 'abc'], /--port must be a port number/],
	])('%j is a usage error', (argv, message) => {
		expect(() => parseDemoArgs(argv)).toThrow(UsageError);
		expect(() => parseDemoArgs(argv)).toThrow(message);
	});
});

describe('npm start -- --url: exactly one trigger, the body shown is the body sent', () => {
	const receiver = new Receiver();
	beforeAll(async () => {
		await receiver.start();
	});
	afterAll(async () => receiver.stop());

	it('sends one signed POST with the given message and context, and returns its answer', async () => {
		const command = parseDemoArgs([
			`--url=${receiver.url}${PATH}`,
			'--message',
			'Check the Oslo stock',
			'--context',
			'{"shop":"Oslo"}',
		]);
		if (command.kind !== 'trigger') throw new Error('not a trigger command');
		const result = await sendOneTrigger(command, SECRET);
		expect(result.ok).toBe(true);
		expect(result.output.statusCode).toBe(202);
		expect(receiver.requests).toHaveLength(1);
		const [request] = receiver.requests;
		expect(specViolations(request, SECRET, PATH)).toEqual([]);
		expect(request.body.toString('utf8')).toBe(triggerBody(command.message, command.context));
		expect(request.body.toString('utf8')).toBe(
			'{"data":{"message":"Check the Oslo stock","context":{"shop":"Oslo"}}}',
		);
	});
});
