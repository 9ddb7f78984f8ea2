/**
 * The local half of the credential test n8n runs when an admin saves the credential: the URL's form
 * and the secret, checked without sending anything. The node then proves the host answers with an
 * unsigned request (nodes/TriggerAutomation/credentialProbe.ts); nothing signed is ever sent, as any
 * correctly signed POST would create a run.
 */
import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { describeSecretProblem } from './signature';
import { parseWebhookUrl } from './webhookUrl';

/** What is wrong with the URL's form or the secret, checked without sending anything; or nothing. */
export function credentialProblem(data: ICredentialDataDecryptedObject): string | undefined {
	try {
		parseWebhookUrl(data.webhookUrl);
	} catch (error) {
		return (error as Error).message;
	}
	return describeSecretProblem(data.signingSecret);
}
