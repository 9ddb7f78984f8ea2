/**
 * The engine tests' common frame: a receiver on 127.0.0.1 that accepts by default, and a run of
 * Start → Trigger Automation against it, after which every request must conform to the spec and
 * nothing may leak. Call `engineReceiver()` at the top of a test file.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';

import { runWorkflow } from '../../dev/engine';
import { expectNoLeak } from './leaks';
import type { ReceivedRequest } from './receiver';
import { Receiver, specViolations } from './receiver';
import { triggerWorkflow } from './workflows';

export const SECRET = 'whsec_engine_test_0123456789';
export const PATH = '/webhooks/cloud/auto-42';

export function engineReceiver() {
	const receiver = new Receiver();
	beforeAll(async () => {
		await receiver.start();
	});
	afterAll(async () => receiver.stop());
	// Each test a service of its own ({base_url}): none meets a rate limiter of another test's
	// executions still ending (sending/limiter.ts).
	let service = 0;
	beforeEach(() => {
		receiver.reset();
		service++;
	});
	const webhookPath = () => `/service-${service}${PATH}`;
	const webhookUrl = () => `${receiver.url}${webhookPath()}`;

	async function run(
		parameters: INodeParameters,
		items?: IDataObject[],
		settings: Record<string, unknown> = {},
	) {
		const result = await runWorkflow(
			triggerWorkflow({
				parameters,
				items,
				settings,
				webhookUrl: webhookUrl(),
				secret: SECRET,
			}),
		);
		// Every test: every request conforms to the spec, and nothing leaks.
		for (const request of receiver.requests)
			expect(specViolations(request, SECRET, webhookPath())).toEqual([]);
		expectNoLeak(SECRET, { run: result }, receiver.requests);
		return result;
	}

	return { receiver, run, webhookUrl, webhookPath };
}

export function timestampOf(request: ReceivedRequest): number {
	return Number(/t=(\d+)/.exec(String(request.headers['x-service-signature']))![1]);
}
