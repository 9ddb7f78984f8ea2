/**
 * What every item of one execution of the node shares: n8n's context, the input items, where to
 * send with which credential, the options and the deadlines.
 */
import type { ICredentialsDecrypted, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { WebhookTarget } from '../../credentials/common/webhookUrl';
import type { Deadlines } from './deadline';
import type { NodeOptions } from './options';

/** Where the node sends, and the credential it signs with (fetched once per execution). */
export interface Target extends WebhookTarget {
	credential: ICredentialsDecrypted;
}

export interface Execution {
	ctx: IExecuteFunctions;
	items: INodeExecutionData[];
	target: Target;
	options: NodeOptions;
	deadlines: Deadlines;
}
