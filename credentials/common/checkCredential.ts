/**
 * The local half of the credential test n8n runs when an admin saves the credential: the URL's form
 * and the secret, checked without sending anything. The node then proves the host answers with an
 * unsigned request (nodes/TriggerAutomation/credentialProbe.ts); nothing signed is ever sent, as any
 * correctly signed POST would create a run.
 */
import type { ICredentialDataDecryptedObject, INodeCredentialTestResult } from 'n8n-workflow';

import { describeSecretProblem } from './signature';
import type { WebhookTarget } from './webhookUrl';
import { parseWebhookUrl } from './webhookUrl';

/** What a passing test cannot prove: said by the credential's notice and by both halves' OK. */
export const SECRET_NOT_PROVEN =
	'The test cannot tell whether the secret is right, as any signed request would start a run: the ' +
	"first trigger shows that (a wrong secret gets 403), and the node's Options → Preview Only shows " +
	'the signed request without sending it.';

/** The sentence both halves of the credential test add for a URL that is not encrypted. */
export function plainHttpNote(url: string): string {
	return url.startsWith('http:')
		? ' Note: the URL uses http://, so requests are not encrypted.'
		: '';
}

export function checkCredential(data: ICredentialDataDecryptedObject): INodeCredentialTestResult {
	let target: WebhookTarget;
	try {
		target = parseWebhookUrl(data.webhookUrl);
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}
	const secretProblem = describeSecretProblem(data.signingSecret);
	if (secretProblem) return { status: 'Error', message: secretProblem };
	return {
		status: 'OK',
		message:
			`The URL is well-formed (automation "${target.automationId}") and the secret is present ` +
			`without stray whitespace; nothing was sent. ${SECRET_NOT_PROVEN}` +
			plainHttpNote(target.url),
	};
}
