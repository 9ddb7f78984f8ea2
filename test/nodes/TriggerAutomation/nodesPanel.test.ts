import type {
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { loadPackage } from '../../../dev/engine';
import { readExamples } from '../../../dev/exampleFiles';
import { NODE_TYPE } from '../../../dev/packageNames';

/**
 * The actions n8n's nodes panel lists for a node that is not in group 'trigger', as its editor
 * derives them in 2.41.1 and 1.123.81 (useActionsGeneration.ts: triggersCategory, then
 * operationsCategory; resources and modes this node has neither of). The e2e editor suite shows
 * the result in the real panel.
 */
function panelActions({ displayName, properties }: INodeTypeDescription): string[] {
	const listed = (property?: INodeProperties) =>
		((property?.options ?? []) as INodePropertyOptions[]).filter(
			(option) => !['*', '', ' '].includes(option.name),
		);
	const events = properties.find((property) =>
		['event', 'events', 'trigger on'].includes(property.displayName?.toLowerCase()),
	);
	const triggers = !displayName.toLowerCase().includes('trigger')
		? []
		: !events?.options
			? [`On new ${displayName.replace('Trigger', '').trimEnd()} event`]
			: listed(events).map((option) => option.action ?? `On ${option.name}`);
	const operation = properties.some((property) => property.name === 'resource')
		? undefined
		: properties.find((property) => property.name?.toLowerCase() === 'operation');
	return [...triggers, ...listed(operation).map((option) => option.action ?? option.name)];
}

describe("the nodes panel: n8n's editor offers the node no made-up trigger action", () => {
	it('the description leaves n8n\'s panel no action to list: no "On new Automation event", and so none with the trigger bolt n8n puts on every action of this node', async () => {
		const { nodeTypes } = await loadPackage();
		const { description } = nodeTypes[NODE_TYPE] as INodeType;
		expect(description.group).not.toContain('trigger');
		expect(panelActions(description)).toEqual([]);
		// Without its hidden Event property, the same rule gives n8n's placeholder (its two spaces
		// shown as one in the page).
		const without = description.properties.filter((property) => property.type !== 'hidden');
		expect(panelActions({ ...description, properties: without })).toEqual([
			'On new  Automation event',
		]);
	});

	it("the Event property is hidden, and n8n saves every workflow's parameters as it did without it", async () => {
		const { nodeTypes } = await loadPackage();
		const { description } = nodeTypes[NODE_TYPE] as INodeType;
		const hidden = description.properties.filter((property) => property.type === 'hidden');
		expect(hidden.map((property) => property.displayName)).toEqual(['Event']);
		const shown = description.properties.filter((property) => property.type !== 'hidden');
		// What the editor saves of a node (getNodeDataToSave: defaults left out).
		const saved = (properties: INodeProperties[], parameters: INodeParameters) =>
			NodeHelpers.getNodeParameters(
				properties,
				parameters,
				false,
				false,
				{ typeVersion: 1 },
				description,
			);
		const nodes = readExamples().flatMap(({ workflow }) =>
			workflow.nodes.filter((node) => node.type === NODE_TYPE),
		);
		expect(nodes.length).toBeGreaterThan(0);
		for (const parameters of [{}, ...nodes.map((node) => node.parameters as INodeParameters)]) {
			const withHidden = saved(description.properties, parameters);
			expect(withHidden).not.toHaveProperty(hidden[0].name);
			expect(withHidden).toEqual(saved(shown, parameters));
		}
	});
});
