import type { INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { loadPackage } from '../../../dev/engine';
import { NODE_TYPE } from '../../../dev/packageNames';

describe('the node as n8n loads it', () => {
	it('the node names it and tests it with its own credential test (credentialProbe.engine.test.ts)', async () => {
		const { nodeTypes } = await loadPackage();
		const node = nodeTypes[NODE_TYPE] as INodeType;
		expect(node.description.credentials).toEqual([
			{ name: 'serviceWebhookSecretApi', required: true, testedBy: 'serviceWebhookSecretApiTest' },
		]);
		expect(typeof node.methods?.credentialTest?.serviceWebhookSecretApiTest).toBe('function');
	});
});
