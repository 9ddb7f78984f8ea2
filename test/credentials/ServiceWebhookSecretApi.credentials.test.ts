/**
 * The credential as n8n loads it. What its `authenticate` does to a request is signRequest's
 * (test/credentials/common/signRequest.engine.test.ts); its credential test is the node's
 * (test/nodes/TriggerAutomation/credentialProbe.engine.test.ts).
 */
import { describe, expect, it } from 'vitest';

import { loadPackage } from '../../dev/engine';

describe('the credential as n8n loads it', () => {
	it('is "Service Webhook Secret": a notice on its test, a URL field and a password field for the secret', async () => {
		const { credentialTypes } = await loadPackage();
		const credential = credentialTypes.serviceWebhookSecretApi;
		expect(credential.displayName).toBe('Service Webhook Secret');
		expect(
			credential.properties.map((p) => [p.name, p.type, p.typeOptions?.password === true]),
		).toEqual([
			['testNotice', 'notice', false],
			['webhookUrl', 'string', false],
			['signingSecret', 'string', true],
		]);
		expect(typeof credential.authenticate).toBe('function');
		expect(credential.documentationUrl).toMatch(/^https:\/\//);
	});
});
