import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	Icon,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './common/credentialType';
import { signRequest } from './common/signRequest';

/**
 * One automation's webhook: where to POST and the secret that signs each request. The secret is
 * used only inside `authenticate`; it is never sent.
 */
export class ServiceWebhookSecretApi implements ICredentialType {
	name = CREDENTIAL_TYPE;

	// The name admins know from the product; it is a signing secret, not an API key. n8n's lint
	// wants display names to end in "API": the one finding its scanner reports (see README).
	displayName = 'Service Webhook Secret';

	icon: Icon = {
		light: 'file:../nodes/TriggerAutomation/triggerAutomation.svg',
		dark: 'file:../nodes/TriggerAutomation/triggerAutomation.dark.svg',
	};

	documentationUrl =
		'https://github.com/automation-service/n8n-nodes-automation-service/blob/main/docs/reference.md';

	properties: INodeProperties[] = [
		{
			displayName:
				'A passing test ("Connection tested successfully") means: the URL is well-formed, the secret is present without stray whitespace, and the host answered one unsigned HEAD request. ' +
				'The test cannot tell whether the secret is right, as any signed request would start a run: the ' +
				"first trigger shows that (a wrong secret gets 403), and the node's Options → Preview Only shows " +
				'the signed request without sending it.',
			name: 'testNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Webhook URL',
			name: 'webhookUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'https://example.com/webhooks/cloud/your-automation-id',
			description:
				"The URL from the automation's Webhook details, of the form {base_url}/webhooks/cloud/&lt;automation_id&gt;. In the desktop app: create the automation, choose Webhook as trigger type, save it, open the menu on the automation card and choose Webhook details.",
		},
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			description:
				"The signing secret shown with the webhook URL in the automation's Webhook details. It signs every request and is never sent. Paste it without surrounding spaces.",
		},
	];

	// Signs the exact body bytes with a fresh timestamp each time n8n calls it (each attempt).
	// An own property, not a method: n8n copies credential types with an object spread before
	// sending them to the editor, which drops prototype methods, and the HTTP Request node offers
	// under Predefined Credential Type only types whose copy still has `authenticate`.
	authenticate = async (
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> => signRequest(credentials, requestOptions);
}
