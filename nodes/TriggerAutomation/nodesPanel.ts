import type { INodeProperties } from 'n8n-workflow';

/**
 * For the nodes panel only; the node's panel never shows it. n8n's editor takes a node whose name
 * holds "Trigger" for a trigger: it offers each option of a property called Event as an action or,
 * with no such property, makes up "On new Automation event" (useActionsGeneration.ts); and it marks
 * every action of a node whose type holds "trigger" with the trigger bolt (ActionItem.vue). With no
 * option, the node has no action: its details show its description and "Add to workflow". Left at
 * its default, n8n saves no value for it.
 */
export const panelEventsProperty: INodeProperties = {
	displayName: 'Event',
	name: 'panelEvents',
	type: 'hidden',
	default: '',
	options: [],
};
