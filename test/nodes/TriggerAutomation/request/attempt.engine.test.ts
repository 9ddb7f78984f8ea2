/**
 * One attempt (request/attempt.ts): the request for an item's body bytes, signed by the credential
 * as n8n sends it, and what the node reads back from it. Whether to try again is triggerItem's
 * (triggerItem.engine.test.ts); what an answer or its absence means is answer/'s.
 */
import { describe, expect, it } from 'vitest';

import { outputOf } from '../../../../dev/engine';
import { engineReceiver, timestampOf } from '../../../support/engineReceiver';
import { NODE_NAME } from '../../../support/workflows';

const { receiver, run } = engineReceiver();

describe('one attempt: one signed POST, and the timestamp it was signed with', () => {
	it("sends the item's body bytes once, asking for JSON or text, and outputs signedAt as the t it was signed with", async () => {
		const result = await run({ message: 'Attempt once', contextMode: 'none' });
		expect(result.status).toBe('success');
		expect(receiver.requests).toHaveLength(1);
		const [request] = receiver.requests;
		expect(request.method).toBe('POST');
		expect(request.headers.accept).toBe('application/json, text/plain, */*');
		expect(request.body.toString('utf8')).toBe('{"data":{"message":"Attempt once"}}');
		const [item] = outputOf(result, NODE_NAME);
		expect(item.json.signedAt).toBe(new Date(timestampOf(request)).toISOString());
	});
});
