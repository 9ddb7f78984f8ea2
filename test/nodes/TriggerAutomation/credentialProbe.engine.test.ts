/**
 * The credential test as n8n runs it: the node's `credentialTest` method called on n8n-core's own
 * CredentialTestContext (its legacy request helper, the only one a credential test has), against
 * real servers on 127.0.0.1. It proves the host answers and never starts a run.
 */
import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INodeCredentialTestResult,
	INodeType,
} from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadPackage } from '../../../dev/engine';
import { NODE_TYPE } from '../../../dev/packageNames';
import { AutomationServiceSimulator } from '../../../dev/simulator';
import { installLocalDns } from '../../support/localDns';
import { Receiver } from '../../support/receiver';

const ID = 'probe-automation';
const SECRET = 'probe_secret_6a1f0c';
const simulator = new AutomationServiceSimulator({ automations: [{ id: ID, secret: SECRET }] });
let credentialTest: (
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
) => Promise<INodeCredentialTestResult>;

beforeAll(async () => {
	installLocalDns();
	await simulator.start();
	const { nodeTypes } = await loadPackage();
	const node = nodeTypes[NODE_TYPE] as INodeType;
	credentialTest = node.methods!.credentialTest!.serviceWebhookSecretApiTest;
});
afterAll(async () => simulator.stop());

async function test(webhookUrl: string, signingSecret = SECRET) {
	const context = new CredentialTestContext({} as never);
	return await credentialTest.call(context, {
		id: '1',
		name: 'Probe',
		type: 'serviceWebhookSecretApi',
		data: { webhookUrl, signingSecret },
	});
}

describe('the credential test proves the host answers, and starts no run', () => {
	it("against the service: OK, one unsigned HEAD request, the simulator's run list unchanged", async () => {
		const before = { requests: simulator.requests, runs: simulator.runs(ID).length };
		const result = await test(simulator.webhookUrl(ID));
		expect(result).toEqual({ status: 'OK', message: 'Connection successful' });
		expect(simulator.requests).toBe(before.requests + 1);
		expect(simulator.runs(ID)).toHaveLength(before.runs);
	});

	it('sends HEAD with no signature and no body', async () => {
		const receiver = await new Receiver().start();
		try {
			await test(`${receiver.url}/webhooks/cloud/${ID}`);
			expect(receiver.requests).toHaveLength(1);
			const [request] = receiver.requests;
			expect(request.method).toBe('HEAD');
			expect(request.headers['x-service-signature']).toBeUndefined();
			expect(request.body.length).toBe(0);
		} finally {
			await receiver.stop();
		}
	});

	it('a URL nothing listens on fails with the message the node gives', async () => {
		expect(await test('http://127.0.0.1:1/webhooks/cloud/nowhere')).toEqual({
			status: 'Error',
			message: 'Could not connect to 127.0.0.1:1: connection refused',
		});
	});

	it('an unknown host fails naming it', async () => {
		expect(await test('https://automation.invalid/webhooks/cloud/x')).toEqual({
			status: 'Error',
			message: 'The host automation.invalid could not be found (DNS ENOTFOUND)',
		});
	});

	it('https to a server that speaks only http fails as a TLS failure', async () => {
		const receiver = await new Receiver({
			respond: (_request, res) => void res.end('plain http'),
		}).start();
		try {
			const result = await test(`${receiver.url.replace('http:', 'https:')}/webhooks/cloud/x`);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(/^No TLS connection to 127\.0\.0\.1:\d+ could be made/);
		} finally {
			await receiver.stop();
		}
	});

	it('a redirect fails: the node never follows one', async () => {
		const receiver = await new Receiver({
			respond: (_request, res) => {
				res.writeHead(301, { Location: 'https://elsewhere.example/webhooks/cloud/x' });
				res.end();
			},
		}).start();
		try {
			const result = await test(`${receiver.url}/webhooks/cloud/${ID}`);
			expect(result.status).toBe('Error');
			expect(result.message).toMatch(
				/^The service answered with a redirect \(301\) to https:\/\/elsewhere\.example/,
			);
			expect(receiver.requests).toHaveLength(1);
		} finally {
			await receiver.stop();
		}
	});

	it('no answer within 10 s fails as a timeout', async () => {
		// It receives the request and never answers.
		const receiver = await new Receiver({ respond: () => undefined }).start();
		try {
			expect(await test(`${receiver.url}/webhooks/cloud/x`)).toEqual({
				status: 'Error',
				message: 'The service did not answer within 10000 ms',
			});
			expect(receiver.requests).toHaveLength(1);
		} finally {
			await receiver.stop();
		}
	}, 20_000);

	it('a bad secret fails before anything is sent', async () => {
		const before = simulator.requests;
		const result = await test(simulator.webhookUrl(ID), ` ${SECRET}`);
		expect(result).toMatchObject({ status: 'Error', message: expect.stringMatching(/whitespace/) });
		expect(simulator.requests).toBe(before);
	});
});
