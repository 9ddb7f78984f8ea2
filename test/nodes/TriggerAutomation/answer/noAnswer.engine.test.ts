/**
 * n8n's own refusals: with SSRF protection on (N8N_SSRF_PROTECTION_ENABLED, a default in n8n 3.0)
 * n8n-core's request helper refuses a private address before anything is sent. The node passes
 * n8n's message and description on, says nothing was sent, and sends nothing again; the
 * credential test says the same.
 */
import { CredentialTestContext } from 'n8n-core';
import { createRequire } from 'node:module';
import type { IDataObject, INodeType } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { loadPackage, outputOf } from '../../../../dev/engine';
import { NODE_TYPE } from '../../../../dev/packageNames';
import { NOTHING_SENT } from '../../../../nodes/TriggerAutomation/answer/failure';
import { SECRET, engineReceiver } from '../../../support/engineReceiver';
import { NODE_NAME } from '../../../support/workflows';

// n8n-core's own copies of n8n's DI container and settings: the ones its request helper reads.
const fromCore = createRequire(require.resolve('n8n-core'));
const { Container } = fromCore('@n8n/di') as typeof import('@n8n/di');
const { SsrfProtectionConfig } = fromCore('@n8n/config') as typeof import('@n8n/config');

const BLOCKED = 'The request was blocked because it resolves to a restricted IP address';

const { receiver, run, webhookUrl } = engineReceiver();

beforeEach(() => {
	Container.get(SsrfProtectionConfig).enabled = true;
});
afterEach(() => {
	Container.get(SsrfProtectionConfig).enabled = false;
});

describe("n8n's SSRF protection refuses the webhook's private address", () => {
	it("each item fails with n8n's message and its description (the allowlist), says nothing was sent, and is not re-sent", async () => {
		const result = await run(
			{ message: '={{ $json.n }}', options: { retries: 5 } },
			[{ n: 1 }, { n: 2 }],
			{ onError: 'continueRegularOutput' },
		);
		const output = outputOf(result, NODE_NAME).map((item) => item.json);
		expect(output.map((json) => json.error)).toEqual([BLOCKED, BLOCKED]);
		const description = (output[0].details as IDataObject).description as string;
		expect(description).toMatch(/^The target 127\.0\.0\.1 is not allowed\..*allowlist/);
		expect(description.endsWith(NOTHING_SENT)).toBe(true);
		expect(receiver.requests).toHaveLength(0);
	});

	it("without Continue On Fail the node stops with n8n's refusal as its error", async () => {
		const result = await run({ message: 'Go' });
		expect(result.status).toBe('error');
		expect(result.data.resultData.error?.message).toBe(BLOCKED);
		expect(receiver.requests).toHaveLength(0);
	});

	it("the credential test fails with n8n's message and description, and sends nothing", async () => {
		const { nodeTypes } = await loadPackage();
		const credentialTest = (nodeTypes[NODE_TYPE] as INodeType).methods!.credentialTest!
			.serviceWebhookSecretApiTest;
		const result = await credentialTest.call(new CredentialTestContext({} as never), {
			id: '1',
			name: 'Blocked',
			type: 'serviceWebhookSecretApi',
			data: { webhookUrl: webhookUrl(), signingSecret: SECRET },
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			new RegExp(`^${BLOCKED}\\. The target 127\\.0\\.0\\.1 is not allowed\\..*allowlist`),
		);
		expect(receiver.requests).toHaveLength(0);
	});
});
