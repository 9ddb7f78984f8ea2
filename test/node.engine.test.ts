import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { errorOf, outputOf, runWorkflow } from '../dev/engine';
import { expectNoLeak } from './support/leaks';
import { Receiver, acceptWithJson, bodyJson, specViolations } from './support/receiver';
import { NODE_NAME, triggerWorkflow } from './support/workflows';

const SECRET = 'whsec_engine_test_0123456789';
const PATH = '/webhooks/cloud/auto-42';
let receiver: Receiver;

beforeAll(async () => {
	receiver = await new Receiver().start();
});
afterAll(async () => receiver.stop());
beforeEach(() => {
	receiver.requests.length = 0;
	receiver.respondWith(acceptWithJson);
});

function run(parameters: Record<string, unknown>, items?: Record<string, unknown>[], settings = {}) {
	return runWorkflow(
		triggerWorkflow({ parameters, items, settings, webhookUrl: `${receiver.url}${PATH}`, secret: SECRET }),
	);
}

describe('a trigger is a signed POST of {"data":{"message","context"}} (spec §4, §5)', () => {
	it('sends message only when Context is None, and passes the response on', async () => {
		const result = await run({ message: 'Summarise today', contextMode: 'none' });
		expect(result.status).toBe('success');
		expect(receiver.requests).toHaveLength(1);
		const [request] = receiver.requests;
		expect(specViolations(request, SECRET, PATH)).toEqual([]);
		expect(request.body.toString('utf8')).toBe('{"data":{"message":"Summarise today"}}');
		const [item] = outputOf(result, NODE_NAME);
		expect(item.pairedItem).toEqual({ item: 0 });
		const t = Number(/t=(\d+)/.exec(String(request.headers['x-service-signature']))![1]);
		expect(item.json).toEqual({
			automationId: 'auto-42',
			signedAt: new Date(t).toISOString(),
			statusCode: 202,
			response: { runId: `run-${request.receivedAt}`, accepted: true },
		});
		expectNoLeak(SECRET, { run: result }, receiver.requests);
	});
});
