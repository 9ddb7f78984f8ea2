/**
 * Workflows of the form Start → Trigger Automation, as a user would build them in the editor: Start
 * is n8n's Manual Trigger with the given items as its pinned data.
 */
import type { IDataObject, INode, INodeParameters } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../credentials/common/credentialType';
import { manualTriggerNode, pinnedItems } from '../../dev/baseNodes';
import type { RunOptions } from '../../dev/engine';
import { NODE_TYPE } from '../../dev/packageNames';

export { CREDENTIAL_TYPE, NODE_TYPE };
export const NODE_NAME = 'Trigger Automation';

export interface TriggerWorkflow {
	items?: IDataObject[];
	parameters: INodeParameters;
	/** Node settings: continueOnFail, onError, retryOnFail, maxTries, waitBetweenTries … */
	settings?: Partial<INode>;
	webhookUrl: string;
	secret: string;
}

export function triggerWorkflow(spec: TriggerWorkflow): RunOptions {
	const nodes: INode[] = [
		manualTriggerNode('Start'),
		{
			id: 'trigger',
			name: NODE_NAME,
			type: NODE_TYPE,
			typeVersion: 1,
			position: [200, 0],
			parameters: spec.parameters,
			credentials: { [CREDENTIAL_TYPE]: { id: 'cred-1', name: 'Automation webhook' } },
			...spec.settings,
		},
	];
	return {
		workflow: {
			nodes,
			connections: { Start: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		},
		pinData: { Start: pinnedItems(spec.items ?? [{}]) },
		credentials: { [CREDENTIAL_TYPE]: { webhookUrl: spec.webhookUrl, signingSecret: spec.secret } },
	};
}
