/**
 * Child process for measurement 4: times `require` of the built node and credential modules in a
 * fresh process and prints one JSON line. Argument `warm`: n8n-workflow (a peer dependency n8n
 * has already loaded when it loads a community package) is required first, untimed for the
 * package; `cold`: nothing is loaded before, so the time includes n8n-workflow.
 */
import { BUILT_CREDENTIAL, BUILT_NODE } from './paths';

function ms(start: bigint): number {
	return Number(process.hrtime.bigint() - start) / 1e6;
}

const mode = process.argv[2] === 'cold' ? 'cold' : 'warm';
let peerMs = 0;
if (mode === 'warm') {
	const peerStart = process.hrtime.bigint();
	require('n8n-workflow');
	peerMs = ms(peerStart);
}
const start = process.hrtime.bigint();
const nodeModule = require(BUILT_NODE) as Record<string, new () => object>;
const credentialModule = require(BUILT_CREDENTIAL) as Record<string, new () => object>;
const requireMs = ms(start);
// n8n's loader then instantiates the classes; timed apart.
const instantiateStart = process.hrtime.bigint();
new nodeModule.TriggerAutomation();
new credentialModule.ServiceWebhookSecretApi();
const instantiateMs = ms(instantiateStart);
process.stdout.write(`${JSON.stringify({ mode, peerMs, requireMs, instantiateMs })}\n`);
