/**
 * The names n8n knows this package and its node by. A node's type is `<package>.<the name in its
 * description>` (nodes/TriggerAutomation/TriggerAutomation.node.ts); n8n adds `Tool` for the variant
 * an AI Agent or MCP Server Trigger calls.
 */
export const PACKAGE_NAME = 'n8n-nodes-automation-service';
export const NODE_TYPE = `${PACKAGE_NAME}.triggerAutomation`;
export const TOOL_TYPE = `${NODE_TYPE}Tool`;
