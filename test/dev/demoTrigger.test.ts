/**
 * `npm start -- --url`: exactly one trigger through n8n's engine with the built node, the body shown
 * is the body sent; and whatever goes wrong, the error the user reads speaks of the flags and the
 * environment variable they set, not of a credential or an n8n they do not run, and holds neither
 * the secret nor the signature. Every failure is a real one, from servers on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TriggerCommand } from '../../dev/demoCli';
import { parseDemoArgs } from '../../dev/demoCli';
import { parseWebhookUrl } from '../../credentials/common/webhookUrl';
import { sendOneTrigger, triggerBody } from '../../dev/demoTrigger';
import type { Responder } from '../support/receiver';
import { Receiver, answer, specViolations } from '../support/receiver';
import { installLocalDns } from '../support/localDns';
import { selfSignedCertificate } from '../support/matrixRunner';

const SECRET = 'cli_test_secret_5e1b';
const PATH = '/webhooks/cloud/auto-cli';

function command(url: string, extra: string[] = []): TriggerCommand {
	const parsed = parseDemoArgs(
		['--url', url, '--message', 'Check the Oslo stock', ...extra],
		{ AUTOMATION_SIGNING_SECRET: SECRET },
		parseWebhookUrl,
	);
	if (parsed.kind !== 'trigger') throw new Error('not a trigger command');
	return parsed;
}

describe('npm start -- --url: exactly one trigger, the body shown is the body sent', () => {
	const receiver = new Receiver();
	beforeAll(async () => {
		await receiver.start();
	});
	afterAll(async () => receiver.stop());

	it('sends one signed POST with the given message and context, and returns its answer', async () => {
		const trigger = command(`${receiver.url}${PATH}`, ['--context', '{"shop":"Oslo"}']);
		const result = await sendOneTrigger(trigger);
		expect(result.ok).toBe(true);
		expect(result.output.statusCode).toBe(202);
		expect(receiver.requests).toHaveLength(1);
		const [request] = receiver.requests;
		expect(specViolations(request, SECRET, PATH)).toEqual([]);
		expect(request.body.toString('utf8')).toBe(triggerBody(trigger));
		expect(request.body.toString('utf8')).toBe(
			'{"data":{"message":"Check the Oslo stock","context":{"shop":"Oslo"}}}',
		);
	});
});

describe('npm start -- --url: every error in the terms of what the user set', () => {
	const http = new Receiver();
	const tlsMaterial = selfSignedCertificate();
	const tls = tlsMaterial ? new Receiver({ tls: tlsMaterial }) : undefined;
	let closedPort = 0;
	beforeAll(async () => {
		installLocalDns(); // nowhere.invalid fails to resolve, in-process
		await http.start();
		await tls?.start();
		const probe = await new Receiver().start();
		closedPort = probe.port;
		await probe.stop();
	});
	afterAll(async () => {
		await http.stop();
		await tls?.stop();
	});

	const status =
		(code: number, headers: Record<string, string> = {}): Responder =>
		(_, res) =>
			answer(res, code, '{"error":"x"}', { 'Content-Type': 'application/json', ...headers });
	const withoutDate =
		(responder: Responder): Responder =>
		(request, res, req) => {
			res.sendDate = false;
			return responder(request, res, req);
		};
	const farFromNow = new Date(Date.now() - 10 * 60_000).toUTCString();

	const cases: Array<[string, () => string, Responder | undefined, RegExp]> = [
		['403, clocks agree', () => http.url, status(403), /rejected the signature \(403\)/],
		['401 without a Date', () => http.url, withoutDate(status(401)), /\(401\)/],
		['401, clock 10 min off', () => http.url, status(401, { Date: farFromNow }), /clock/],
		['404', () => http.url, status(404), /No automation found/],
		['307', () => http.url, status(307, { Location: 'https://x.example/' }), /redirect/],
		['418', () => http.url, status(418), /refused the request \(418\)/],
		['connection refused', () => `http://127.0.0.1:${closedPort}`, undefined, /refused/],
		['unknown host', () => 'http://nowhere.invalid:8080', undefined, /ENOTFOUND/],
		['https to plain HTTP', () => http.url.replace('http:', 'https:'), undefined, /TLS/],
	];
	if (tls) cases.push(['untrusted certificate', () => tls.url, undefined, /not trusted/]);

	it.each(cases)('%s', async (_, base, responder, expected) => {
		http.reset();
		if (responder) http.respondWith(responder);
		const result = await sendOneTrigger(command(`${base()}${PATH}`));
		expect(result.ok).toBe(false);
		expect(result.error).toMatch(expected);
		expect(result.error).not.toMatch(/credential|n8n/i);
		expect(result.error).not.toContain(SECRET);
		expect(result.error).not.toMatch(/v1=[0-9a-f]{64}/);
	});
});
