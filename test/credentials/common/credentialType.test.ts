import type { INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { CREDENTIAL_TYPE } from '../../../credentials/common/credentialType';
import { loadPackage } from '../../../dev/engine';
import { NODE_TYPE } from '../../../dev/packageNames';

describe("the credential type's one name", () => {
	it('is serviceWebhookSecretApi: the key n8n loads the credential under, and the one the node asks for', async () => {
		// Saved workflows refer to the credential by this name: renaming it would orphan them.
		expect(CREDENTIAL_TYPE).toBe('serviceWebhookSecretApi');
		const { credentialTypes, nodeTypes } = await loadPackage();
		expect(credentialTypes[CREDENTIAL_TYPE].name).toBe(CREDENTIAL_TYPE);
		const node = nodeTypes[NODE_TYPE] as INodeType;
		expect(node.description.credentials?.map((credential) => credential.name)).toEqual([
			CREDENTIAL_TYPE,
		]);
	});
});
