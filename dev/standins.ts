/* eslint-disable -- dev and test code, never shipped ("files": ["dist"]): n8n's node rules cover nodes/ and credentials/. */
/**
 * Stand-ins for the n8n core nodes the example workflows use around Trigger Automation. The full
 * n8n app and n8n-nodes-base cannot be installed here, so these reproduce just what the examples
 * rely on: a trigger that emits one item, and Edit Fields setting typed fields. They register under
 * n8n's own type names so the example files stay importable into n8n unchanged.
 */
import type {
	AssignmentCollectionValue,
	FieldType,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError, validateFieldType } from 'n8n-workflow';

function triggerDescription(name: string, displayName: string): INodeTypeDescription {
	return {
		displayName,
		name,
		group: ['trigger'],
		version: [1, 1.1, 1.2],
		description: `Stand-in for ${displayName}`,
		defaults: { name: displayName },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};
}

/** Manual Trigger: one empty item, as n8n's "Execute workflow" button gives. */
class ManualTrigger implements INodeType {
	description = triggerDescription('n8n-nodes-base.manualTrigger', 'Manual Trigger');

	async execute(): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

/** Schedule Trigger: one item with the firing time, as n8n's schedule trigger emits. */
class ScheduleTrigger implements INodeType {
	description = triggerDescription('n8n-nodes-base.scheduleTrigger', 'Schedule Trigger');

	async execute(): Promise<INodeExecutionData[][]> {
		const now = new Date();
		return [
			[{ json: { timestamp: now.toISOString(), 'Day of week': now.toUTCString().slice(0, 3) } }],
		];
	}
}

/** Edit Fields (Set) 3.4, manual mode: typed assignments, other fields dropped unless asked. */
class EditFields implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Edit Fields',
		name: 'n8n-nodes-base.set',
		group: ['input'],
		version: [3.3, 3.4],
		description: 'Stand-in for Edit Fields (Set)',
		defaults: { name: 'Edit Fields' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Fields', name: 'assignments', type: 'assignmentCollection', default: {} },
			{
				displayName: 'Include Other Fields',
				name: 'includeOtherFields',
				type: 'boolean',
				default: false,
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			this.getInputData().map((item, itemIndex) => {
				const { assignments } = this.getNodeParameter('assignments', itemIndex, {
					assignments: [],
				}) as AssignmentCollectionValue;
				const keep = this.getNodeParameter('includeOtherFields', itemIndex, false) as boolean;
				const json: IDataObject = keep ? { ...item.json } : {};
				for (const { name, value, type } of assignments ?? []) {
					const result = validateFieldType(name, value, (type ?? 'string') as FieldType);
					if (!result.valid) {
						throw new NodeOperationError(this.getNode(), result.errorMessage ?? name, {
							itemIndex,
						});
					}
					json[name] = result.newValue as IDataObject[string];
				}
				return { json, pairedItem: { item: itemIndex } };
			}),
		];
	}
}

export const standInNodeTypes: Record<string, INodeType> = {
	'n8n-nodes-base.manualTrigger': new ManualTrigger(),
	'n8n-nodes-base.scheduleTrigger': new ScheduleTrigger(),
	'n8n-nodes-base.set': new EditFields(),
};
