import type {
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	IExecuteFunctions,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, UserError } from 'n8n-workflow';

import { credentialProblem } from '../../credentials/common/checkCredential';
import { CREDENTIAL_TYPE } from '../../credentials/common/credentialType';
import { parseWebhookUrl } from '../../credentials/common/webhookUrl';
import { SUBTITLE, nodeProperties } from './description';

// n8n before 1.85 ships an n8n-workflow without NodeConnectionTypes, and reports the TypeError of
// reading it as "Class could not be found". Any other error it shows as it is: say what is needed
// (from n8n 1.7x on; older ones lack UserError too, and say "Class could not be found").
if (typeof NodeConnectionTypes !== 'object') {
	throw new UserError(
		'n8n-nodes-automation-service needs n8n 1.85 or newer (this n8n has no NodeConnectionTypes): update n8n, see the Compatibility section of the package README',
	);
}

export class TriggerAutomation implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Trigger Automation',
		name: 'triggerAutomation',
		icon: { light: 'file:triggerAutomation.svg', dark: 'file:triggerAutomation.dark.svg' },
		group: ['output'],
		version: [1],
		subtitle: SUBTITLE,
		description:
			'Start a run of an Automation Service automation through its signed webhook, with a message for its AI and optional context',
		defaults: {
			name: 'Trigger Automation',
		},
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: CREDENTIAL_TYPE,
				required: true,
				testedBy: 'serviceWebhookSecretApiTest',
			},
		],
		properties: nodeProperties,
	};

	methods = {
		credentialTest: {
			async serviceWebhookSecretApiTest(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				const problem = credentialProblem(credential.data ?? {});
				if (problem) return { status: 'Error', message: problem };
				// Loaded when an admin tests a credential, not when n8n loads the package.
				const { probeWebhook } = await import('./credentialProbe');
				return await probeWebhook(this, parseWebhookUrl(credential.data?.webhookUrl));
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// Loaded on first use: n8n loads every installed package when it starts (the main instance and
		// each worker), and without the execution code the load stays within its target
		// (BENCHMARKS.md, Load time).
		const { triggerAutomations } = await import('./execute');
		return await triggerAutomations.call(this);
	}
}
