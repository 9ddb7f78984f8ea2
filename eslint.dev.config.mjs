// The lint of the whole repository (`npm run lint`). eslint.config.mjs stays n8n's default, byte
// for byte, as n8n's strict mode (package.json "n8n.strict") requires of a package meant for n8n
// Cloud; this file applies that same config and only narrows where n8n's node rules apply.
import { config } from '@n8n/node-cli/eslint';

// n8n's community-node rules (no Node built-ins, no timers, no console, n8n's error classes …) are
// for what ships: nodes/ and credentials/ (and package.json). Dev, test, end-to-end and benchmark
// code is never published (package.json "files"); it runs servers, processes and files in Node and
// prints what it did, so only the TypeScript and import rules apply to it.
const SHIPPED = ['nodes/**/*.ts', 'credentials/**/*.ts'];
const DEV = ['dev/**/*.ts', 'test/**/*.ts', 'e2e/**/*.ts', 'bench/**/*.ts', '*.mts'];

const communityNodeRules = (block) =>
	block.plugins?.['@n8n/community-nodes'] !== undefined && block.files?.includes('**/*.ts');

export default [
	// Built dev code, and the copy of the package the benchmarks measure.
	{ ignores: ['.dev-dist/**'] },
	...config.map((block) => (communityNodeRules(block) ? { ...block, files: SHIPPED } : block)),
	{ files: DEV, rules: { 'no-console': 'off' } },
	// "Service Webhook Secret" is the product's name for it (a signing secret, not an API key). The
	// rule stays on for n8n's scanner, which reports this one finding; see
	// docs/install.md, Verification.
	{
		files: ['credentials/ServiceWebhookSecretApi.credentials.ts'],
		rules: { 'n8n-nodes-base/cred-class-field-display-name-missing-api': 'off' },
	},
	// The load-time benchmark times require() itself.
	{ files: ['bench/**/*.ts'], rules: { '@typescript-eslint/no-require-imports': 'off' } },
];
