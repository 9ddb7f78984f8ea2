import { Readable } from 'node:stream';

import type { IExecuteFunctions, INodeType } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { manualTriggerNode } from '../../../dev/baseNodes';
import { outputOf, runWorkflow } from '../../../dev/engine';
import { Receiver, specViolations } from '../../support/receiver';

const SECRET = 'cred_secret_4f1d';

/**
 * The HTTP Request node sends through n8n's legacy `requestWithAuthentication` helper. This test node
 * makes the same calls the HTTP Request node makes for its body modes, so the credential's signing
 * is checked on that path too, inside the real engine.
 */
const legacyCalls: Record<string, (url: string) => Record<string, unknown>> = {
	'JSON body (fields or raw JSON)': (uri) => ({
		method: 'POST',
		uri,
		body: { data: { message: 'from HTTP Request', context: { é: '🚀' } } },
		json: true,
	}),
	'raw body, content type application/json': (uri) => ({
		method: 'POST',
		uri,
		body: '{"data":{"message":"raw"}}',
		headers: { 'content-type': 'application/json' },
	}),
	'form urlencoded': (uri) => ({ method: 'POST', uri, form: { data: 'x' } }),
	'multipart form-data': (uri) => ({ method: 'POST', uri, formData: { data: 'x' } }),
	'JSON body to another automation on the same host': (uri) => ({
		method: 'POST',
		uri: uri.replace('/http-node', '/other'),
		body: { data: { message: 'x' } },
		json: true,
	}),
	'query parameters': (uri) => ({
		method: 'POST',
		uri,
		qs: { token: 'x' },
		body: { data: { message: 'x' } },
		json: true,
	}),
	'binary stream body': (uri) => ({
		method: 'POST',
		uri,
		body: Readable.from([Buffer.from('{"data":{"message":"x"}}')]),
		headers: { 'content-type': 'application/json' },
	}),
};

class LegacyRequestNode implements INodeType {
	description = {
		displayName: 'Legacy request',
		name: 'test.legacyRequest',
		group: ['transform'],
		version: 1,
		description: 'Calls requestWithAuthentication as the HTTP Request node does',
		defaults: { name: 'Legacy request' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'serviceWebhookSecretApi', required: true }],
		properties: [
			{ displayName: 'Mode', name: 'mode', type: 'string' as const, default: '' },
			{ displayName: 'URL', name: 'url', type: 'string' as const, default: '' },
		],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions) {
		const mode = this.getNodeParameter('mode', 0) as string;
		const url = this.getNodeParameter('url', 0) as string;
		try {
			await this.helpers.requestWithAuthentication.call(
				this,
				'serviceWebhookSecretApi',
				legacyCalls[mode](url) as never,
			);
			return [[{ json: { sent: true } }]];
		} catch (error) {
			return [[{ json: { sent: false, error: (error as Error).message } }]];
		}
	}
}

describe('the credential in the HTTP Request node (legacy request helper)', () => {
	let receiver: Receiver;
	beforeAll(async () => {
		receiver = await new Receiver().start();
	});
	afterAll(async () => receiver.stop());
	beforeEach(() => {
		receiver.requests.length = 0;
	});

	async function call(mode: string) {
		const url = `${receiver.url}/webhooks/cloud/http-node`;
		const run = await runWorkflow({
			workflow: {
				nodes: [
					manualTriggerNode('Start', 's'),
					{
						id: 'h',
						name: 'HTTP',
						type: 'test.legacyRequest',
						typeVersion: 1,
						position: [1, 0],
						parameters: { mode, url },
						credentials: { serviceWebhookSecretApi: { id: '1', name: 'c' } },
					},
				],
				connections: { Start: { main: [[{ node: 'HTTP', type: 'main', index: 0 }]] } },
			},
			credentials: { serviceWebhookSecretApi: { webhookUrl: url, signingSecret: SECRET } },
			extraNodeTypes: { 'test.legacyRequest': new LegacyRequestNode() },
		});
		return outputOf(run, 'HTTP')[0].json as { sent: boolean; error?: string };
	}

	it.each([
		[
			'JSON body (fields or raw JSON)',
			'{"data":{"message":"from HTTP Request","context":{"é":"🚀"}}}',
		],
		['raw body, content type application/json', '{"data":{"message":"raw"}}'],
	])('%s: signed over the exact bytes sent', async (mode, bytes) => {
		expect(await call(mode)).toEqual({ sent: true });
		expect(receiver.requests).toHaveLength(1);
		expect(specViolations(receiver.requests[0], SECRET, '/webhooks/cloud/http-node')).toEqual([]);
		expect(receiver.requests[0].body.equals(Buffer.from(bytes, 'utf8'))).toBe(true);
	});

	it.each([
		['form urlencoded', /cannot be signed byte for byte/],
		['multipart form-data', /cannot be signed byte for byte/],
		[
			'JSON body to another automation on the same host',
			/only signs requests to its own webhook URL/,
		],
		['query parameters', /takes no query parameters/],
		['binary stream body', /cannot be signed byte for byte/],
	])('%s: refused before anything is sent', async (mode, problem) => {
		const result = await call(mode);
		expect(result.sent).toBe(false);
		expect(result.error).toMatch(problem);
		expect(receiver.requests).toHaveLength(0);
	});
});
